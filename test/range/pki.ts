/**
 * The range's certificates that other servers' configs depend on, made before any server starts
 * (named's zones carry TLSA records of postfix's key; the scanner trusts the range's CA):
 *
 * - a private CA (`pki/ca.pem`), which `scanRangeHost` gives every scan as
 *   `extraCaCertificates`, as the root store is trusted on the internet. It signs only the
 *   MTA-STS policy host's certificate: every other certificate of the range stays self-signed
 *   and untrusted, as planted.
 * - postfix's self-signed certificate for mail.example.test (`pki/mail.pem`), whose key the TLSA
 *   records name (`3 1 1`: SHA-256 of the SubjectPublicKeyInfo);
 * - a retired key (`pki/mail-retired.key`): the key postfix had before a renewal, whose TLSA
 *   record was never removed (the DANE mismatch plant).
 *
 * Kept across a partial restart (a restarted named must publish the key postfix still serves);
 * made anew with a fresh run folder.
 */
import { createHash, createPublicKey, X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { rangeMailPlants } from './layout.js';

export interface PkiTools {
  /** Runs a command to completion; rejects with its stderr. */
  run(command: string, args: string[], options?: { cwd?: string }): Promise<string>;
}

/** The TLSA association data of the two keys, `3 1 1` (hex). */
export interface RangeTlsa {
  current: string;
  retired: string;
}

const P256 = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '365'];

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Makes whatever of the range's PKI is missing under `RUN/pki`; returns the TLSA data of postfix's current and retired keys. */
export async function ensureRangePki(runDir: string, tools: PkiTools): Promise<RangeTlsa> {
  const dir = path.join(runDir, 'pki');
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  const file = (name: string) => path.join(dir, name);
  if (!(await exists(file('ca.pem')))) {
    await tools.run('openssl', [
      'req', '-x509', ...P256, '-subj', '/O=Rampart scan range/CN=Rampart Range CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout', file('ca.key'), '-out', file('ca.pem'),
    ]);
    await fs.rm(file('mta-sts.pem'), { force: true });
  }
  if (!(await exists(file('mta-sts.pem')))) {
    const host = rangeMailPlants.mtaSts.host;
    await tools.run('openssl', [
      'req', '-x509', '-CA', file('ca.pem'), '-CAkey', file('ca.key'), ...P256, '-sha256', '-subj', `/O=Example Test/CN=${host}`,
      '-addext', `subjectAltName=DNS:${host}`, '-addext', 'basicConstraints=critical,CA:FALSE', '-addext', 'extendedKeyUsage=serverAuth',
      '-keyout', file('mta-sts.key'), '-out', file('mta-sts.pem'),
    ]);
  }
  if (!(await exists(file('mail.pem')))) {
    await tools.run('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-sha256', '-nodes', '-days', '365', '-subj', '/O=Example Test/CN=mail.example.test',
      '-addext', 'subjectAltName=DNS:mail.example.test', '-keyout', file('mail.key'), '-out', file('mail.pem'),
    ]);
  }
  if (!(await exists(file('mail-retired.key')))) {
    await tools.run('openssl', ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file('mail-retired.key')]);
  }
  for (const key of ['ca.key', 'mta-sts.key', 'mail.key', 'mail-retired.key']) await fs.chmod(file(key), 0o600);
  const current = new X509Certificate(await fs.readFile(file('mail.pem'))).publicKey;
  const retired = createPublicKey(await fs.readFile(file('mail-retired.key')));
  return { current: spkiSha256(current), retired: spkiSha256(retired) };
}

/** `3 1 1` association data: SHA-256 of the key's DER SubjectPublicKeyInfo, hex. */
export function spkiSha256(key: ReturnType<typeof createPublicKey>): string {
  return createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex');
}

/** The range CA's certificate (PEM) as the last `up` made it; undefined before any. */
export async function readRangeCa(runDir: string): Promise<string[] | undefined> {
  const pem = await fs.readFile(path.join(runDir, 'pki', 'ca.pem'), 'utf8').catch(() => undefined);
  return pem?.includes('BEGIN CERTIFICATE') ? [pem] : undefined;
}

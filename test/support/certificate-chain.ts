import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertificateChain {
  /** The issuing CA's certificate (self-signed, CA:TRUE), PEM. */
  ca: string;
  /** The server certificate for `name`, signed by the CA, PEM. */
  cert: string;
  key: string;
}

/** A throwaway CA and a P-256 server certificate it signs for `name`, made by the openssl CLI. */
export function certificateChain(name: string, days = 30): CertificateChain {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-chain-'));
  const file = (f: string) => join(dir, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  try {
    openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', String(days), '-subj', '/CN=Rampart Test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', file('key.pem'), '-out', file('req.csr'), '-subj', `/CN=${name}`);
    writeFileSync(file('ext.cnf'), `subjectAltName=DNS:${name}\nbasicConstraints=CA:FALSE\n`);
    openssl('x509', '-req', '-in', file('req.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('cert.pem'), '-days', String(days), '-extfile', file('ext.cnf'));
    return { ca: readFileSync(file('ca.pem'), 'utf8'), cert: readFileSync(file('cert.pem'), 'utf8'), key: readFileSync(file('key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

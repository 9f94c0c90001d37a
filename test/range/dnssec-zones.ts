/**
 * The range's signed zones (layout.ts `rangeDnssec`), made fresh at each `up` with bind9's own
 * tools before named starts: keys by dnssec-keygen, signatures by dnssec-signzone (full form, one
 * record a line, so a plant can edit one), each zone's DS by dnssec-dsfromkey into the parent
 * `test.`, which is signed last; the DS of the parent's key is the range's trust anchor.
 * About 0.3 s in all: ECDSA keys are instant, the RSA/SHA-1 key is 1024 bits.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { rangeDnssec, rangeLayout, rangeMailPlants } from './layout.js';
import type { RangeTlsa } from './pki.js';

export interface ZoneTools {
  /** Renders a template of templates/ with {{KEY}} filled in. */
  render(template: string, target: string, extra?: Record<string, string>): Promise<void>;
  /** Runs a command to completion; rejects with its stderr. */
  run(command: string, args: string[], options?: { cwd?: string }): Promise<string>;
}

type Zone = (typeof rangeDnssec.zones)[number];

/** Makes the keys of a zone; returns the key-signing key's file name (without extension). */
async function keygen(keys: string, zone: string, algorithm: string, bits: number | undefined, split: boolean, tools: ZoneTools): Promise<string> {
  const size = bits ? ['-b', String(bits)] : [];
  const ksk = (await tools.run('dnssec-keygen', ['-q', '-K', keys, '-a', algorithm, ...size, '-f', 'KSK', zone])).trim();
  if (split) await tools.run('dnssec-keygen', ['-q', '-K', keys, '-a', algorithm, ...size, zone]);
  return ksk;
}

/** Appends the zone's public keys to its zone file and signs it into `ZONE.signed`. */
async function sign(dir: string, keys: string, zone: string, args: string[], tools: ZoneTools): Promise<void> {
  const keyFiles = (await fs.readdir(keys)).filter((f) => f.startsWith(`K${zone}.+`));
  const publicKeys = await Promise.all(keyFiles.filter((f) => f.endsWith('.key')).map((f) => fs.readFile(path.join(keys, f), 'utf8')));
  await fs.appendFile(path.join(dir, `${zone}.zone`), publicKeys.join(''));
  const privateKeys = keyFiles.filter((f) => f.endsWith('.private')).map((f) => path.join(keys, f));
  // -P: no self-check (it would refuse the expired zone); -O full: one record a line.
  await tools.run('dnssec-signzone', ['-q', '-P', '-O', 'full', ...args, '-o', zone, '-f', path.join(dir, `${zone}.signed`), path.join(dir, `${zone}.zone`), ...privateKeys], { cwd: dir });
}

/** The plant of broken.test: one base64 character of the apex A record's RRSIG changed. */
async function tamperApexSignature(file: string, zone: string): Promise<void> {
  const lines = (await fs.readFile(file, 'utf8')).split('\n');
  const index = lines.findIndex((line) => {
    const fields = line.trim().split(/\s+/);
    return fields[0] === `${zone}.` && fields[3] === 'RRSIG' && fields[4] === 'A';
  });
  if (index < 0) throw new Error(`dnssec-zones: no RRSIG over A at ${zone} to tamper with`);
  const fields = lines[index]!.trim().split(/\s+/);
  // The signature is the last fields (base64 split by spaces); change its 8th character.
  const first = fields.length - 2;
  const sig = fields[first]!;
  fields[first] = `${sig.slice(0, 7)}${sig[7] === 'A' ? 'B' : 'A'}${sig.slice(8)}`;
  lines[index] = fields.join(' ');
  await fs.writeFile(file, lines.join('\n'));
}

/**
 * The mail records of a signed zone: example.test's MX, except in the DANE zone, which has its own
 * MX hosts on postfix, each with its TLSA `3 1 1` record (one of postfix's key, one of a retired key).
 */
function mailRecords(zone: string, tlsa: RangeTlsa): string {
  const { dane } = rangeMailPlants;
  if (zone !== dane.signedZone) return '@    IN MX  10 mail.example.test.';
  return dane.signedMx
    .flatMap(({ host, preference, tlsa: key }) => {
      const label = host.slice(0, -(zone.length + 1));
      return [`@    IN MX  ${preference} ${host}.`, `${label} IN A ${rangeLayout.hosts.mail.address}`, `_25._tcp.${label} IN TLSA 3 1 1 ${tlsa[key]}`];
    })
    .join('\n');
}

/** Writes and signs every zone of `rangeDnssec` and the parent into `dir` (named's folder). */
export async function signRangeZones(dir: string, tools: ZoneTools, tlsa: RangeTlsa): Promise<void> {
  const keys = path.join(dir, 'keys');
  await fs.mkdir(keys, { recursive: true, mode: 0o700 });
  const delegations = await Promise.all(
    rangeDnssec.zones.map(async (z: Zone) => {
      await tools.render('dnssec-child.zone', path.join(dir, `${z.zone}.zone`), { ZONE: z.zone, MAIL: mailRecords(z.zone, tlsa) });
      const ksk = await keygen(keys, z.zone, z.algorithm, z.bits, z.split, tools);
      const window = z.plant === 'expired-2020' ? ['-s', rangeDnssec.expiredWindow.inception, '-e', rangeDnssec.expiredWindow.expiration] : [];
      const denial = z.denial === 'nsec3' ? ['-3', '-', '-H', '0'] : [];
      await sign(dir, keys, z.zone, [...window, ...denial, ...(z.split ? [] : ['-z'])], tools);
      if (z.plant === 'tampered-a-signature') await tamperApexSignature(path.join(dir, `${z.zone}.signed`), z.zone);
      const ds = await tools.run('dnssec-dsfromkey', ['-2', path.join(keys, `${ksk}.key`)]);
      const label = z.zone.replace(/\.test$/, '');
      return [`${label} IN NS ns1.${z.zone}.`, `ns1.${label} IN A ${rangeLayout.hosts.dns.address}`, ds.trim()].join('\n');
    }),
  );
  await tools.render('test.zone', path.join(dir, 'test.zone'), { DELEGATIONS: delegations.join('\n') });
  const parentKey = await keygen(keys, rangeDnssec.parent, 'ECDSAP256SHA256', undefined, false, tools);
  await sign(dir, keys, rangeDnssec.parent, ['-z'], tools);
  const anchor = await tools.run('dnssec-dsfromkey', ['-2', path.join(keys, `${parentKey}.key`)]);
  await fs.writeFile(path.join(dir, path.basename(rangeDnssec.trustAnchorFile)), `${anchor.trim().split(/\s+/).join(' ')}\n`, { mode: 0o644 });
}

/** The range's trust anchor (the DS of test.'s key) as the last `up` wrote it; undefined before any. */
export async function readRangeTrustAnchors(runDir: string): Promise<string[] | undefined> {
  const text = await fs.readFile(path.join(runDir, rangeDnssec.trustAnchorFile), 'utf8').catch(() => undefined);
  const lines = text?.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines && lines.length > 0 ? lines : undefined;
}

/**
 * DNSSEC on the range (issue 20 item 3): bind9 serves a signed parent `test.` (the range's trust
 * anchor) and three signed zones under it (layout.ts `rangeDnssec`): signed.test done right,
 * broken.test with a tampered signature over its apex A record, expired.test signed with RSA/SHA-1
 * for January 2020 only. First what bind9's own validator (delv) says of each, then what
 * Rampart's dns check finds, by value, and what it costs.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dnsCheck } from '../../lambdas/scanner/checks/dns.check.js';
import type { DnssecValidation } from '../../lambdas/scanner/checks/dns/dnssec-chain.js';
import type { ScanReport } from '../../lambdas/scanner/scan.js';
import { readRangeTrustAnchors } from './dnssec-zones.js';
import { scanRangeHost } from './engine.js';
import { rangeDnssec, rangeLayout } from './layout.js';
import { assertRangeUp, RANGE_DIR } from './range.js';

const resolver = rangeLayout.resolver;
let anchors: string[];

beforeAll(async () => {
  await assertRangeUp();
  anchors = (await readRangeTrustAnchors(RANGE_DIR)) ?? [];
});

/** bind9's validating lookup, asking only the range's server, anchored at test. */
async function delv(name: string, type: string): Promise<string> {
  const [owner, , , tag, algorithm, digestType, ...digest] = anchors[0]!.split(/\s+/);
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'rampart-delv-')), 'anchor.conf');
  await fs.writeFile(file, `trust-anchors {\n  ${owner} static-ds ${tag} ${algorithm} ${digestType} "${digest.join('')}";\n};\n`);
  try {
    return await new Promise((resolve) => {
      execFile('delv', [`@${resolver.host}`, '-p', String(resolver.port), '-a', file, `+root=${rangeDnssec.parent}`, name, type], { timeout: 10_000 }, (_error, stdout, stderr) =>
        resolve(`${stdout}${stderr}`),
      );
    });
  } finally {
    await fs.rm(path.dirname(file), { recursive: true, force: true });
  }
}

describe('the signed zones, as bind9 serves them', () => {
  it("has the range's trust anchor: the DS of test.'s ECDSA key", () => {
    expect(anchors).toEqual([expect.stringMatching(/^test\. IN DS \d+ 13 2 [0-9A-F]{64}$/)]);
  });

  it('validates signed.test with delv, and refuses broken.test and expired.test', async () => {
    const [good, tampered, expired] = await Promise.all([delv('signed.test', 'A'), delv('broken.test', 'A'), delv('expired.test', 'A')]);
    expect(good).toContain('; fully validated');
    expect(good).toMatch(/signed\.test\.\s+\d+\s+IN\s+A\s+127\.0\.0\.2/);
    expect(tampered).toContain('resolution failed: RRSIG failed to verify');
    expect(expired).toContain('RRSIG has expired');
    expect(expired).toContain('resolution failed: broken trust chain');
  });
});

interface DnsData {
  dnssec: { status: string; validation: DnssecValidation };
}

describe("Rampart's dns check on the signed zones", () => {
  const reports = new Map<string, ScanReport>();
  const dnsOf = (host: string) => reports.get(host)!.checks.find((c) => c.name === 'dns')!;
  const dnssecFindings = (host: string) => dnsOf(host).findings.filter((f) => f.id.startsWith('dns.dnssec')).map((f) => [f.id, f.severity]);
  const validation = (host: string) => (dnsOf(host).data as unknown as DnsData).dnssec.validation;
  const steps = (host: string) => validation(host).steps.map((s) => `${s.step} ${s.type} ${s.name}: ${s.result}`);

  beforeAll(async () => {
    // Only the dns check: the question is DNSSEC, and nginx behind these names is tested elsewhere.
    const hosts = ['www.signed.test', 'broken.test', 'www.expired.test', 'www.example.test'];
    const scanned = await Promise.all(hosts.map((host) => scanRangeHost(`https://${host}`, { checks: [dnsCheck] })));
    hosts.forEach((host, i) => reports.set(host, scanned[i]!));
  });

  it('validates signed.test from the trust anchor down, and says so', () => {
    expect(dnssecFindings('www.signed.test')).toEqual([['dns.dnssec.validated', 'info']]);
    expect(validation('www.signed.test')).toMatchObject({ result: 'secure', anchor: 'test', chainFromAnchor: true, algorithms: [13] });
    expect(steps('www.signed.test')).toEqual([
      'dnskey DNSKEY test: valid',
      'ds DS signed.test: valid',
      'dnskey DNSKEY signed.test: valid',
      'rrset A www.signed.test: valid',
      'rrset A signed.test: valid',
      'rrset MX signed.test: valid',
      expect.stringMatching(/^denial A rampart-[a-z0-9]+\.signed\.test: valid$/),
    ]);
    expect(validation('www.signed.test').steps.at(-1)?.denial).toMatchObject({ kind: 'nsec3', proven: true, closestEncloser: 'signed.test', iterations: 0 });
  });

  it('finds the tampered signature over broken.test A: broken, critical, and only that record', () => {
    expect(dnssecFindings('broken.test')).toEqual([['dns.dnssec.broken', 'critical']]);
    const broken = dnsOf('broken.test').findings.find((f) => f.id === 'dns.dnssec.broken')!;
    expect(broken.evidence).toMatch(/^broken\.test: A broken\.test: the signature by key \d+ \(ECDSAP256SHA256\) does not verify$/);
    expect(steps('broken.test').filter((s) => !s.endsWith(': valid'))).toEqual(['rrset A broken.test: bogus']);
    expect((dnsOf('broken.test').data as unknown as DnsData).dnssec.status).toBe('broken');
  });

  it('finds the signatures of expired.test expired since 2020-02-01, and RSA/SHA-1 deprecated', () => {
    expect(dnssecFindings('www.expired.test')).toEqual([
      ['dns.dnssec.signature-expired', 'critical'],
      ['dns.dnssec.deprecated-algorithm', 'medium'],
    ]);
    const expired = dnsOf('www.expired.test').findings.find((f) => f.id === 'dns.dnssec.signature-expired')!;
    expect(expired.evidence).toMatch(/^expired\.test: DNSKEY expired\.test: the signature by key \d+ \(RSASHA1\) expired on 2020-02-01; /);
    expect(validation('www.expired.test').algorithms).toEqual([5]);
    expect(steps('www.expired.test').slice(2)).toEqual([
      'dnskey DNSKEY expired.test: expired',
      'rrset A www.expired.test: expired',
      'rrset A expired.test: expired',
      'rrset MX expired.test: expired',
      expect.stringMatching(/^denial A rampart-[a-z0-9]+\.expired\.test: expired$/),
    ]);
  });

  it('still reads example.test as unsigned: test. delegates it without a DS', () => {
    expect(dnssecFindings('www.example.test')).toEqual([['dns.dnssec.unsigned', 'low']]);
    expect(steps('www.example.test')).toEqual(['dnskey DNSKEY test: valid', 'ds DS example.test: insecure']);
  });

  it('stays far inside the check budget: the DNSSEC questions ride the same concurrent wave', () => {
    for (const host of reports.keys()) {
      const check = dnsOf(host);
      expect(check.status).toBe('ok');
      expect(check.durationMs).toBeLessThan(1_000);
      console.log(`dns check on ${host}: ${check.durationMs} ms, DNSSEC ${validation(host).result}`);
    }
  });
});

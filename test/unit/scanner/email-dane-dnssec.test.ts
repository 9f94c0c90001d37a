/**
 * DANE's DNSSEC, validated: the email check validates each MX's TLSA RRset with the dns check's
 * chain validator, from the trust anchor down to the zone that signs it, over a loopback zone
 * server holding zones bind9 signed (test/fixtures/dns/dane, make-fixtures.sh): signed.example
 * (DS at the parent), stale.example (its TLSA RRSIGs ran out on 2020-02-01), nods.example (signed,
 * no DS at the parent) and plain.example (unsigned), all below the anchored parent `example`. The
 * scanned domain dane.test is another zone: the chain is built for the TLSA owner's zone.
 */
import { readFileSync } from 'node:fs';
import type dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeEmail, EHLO_NAME, emailCheck } from '../../../lambdas/scanner/checks/email.check.js';
import { probeEmail } from '../../../lambdas/scanner/checks/email/email.probe.js';
import { parseTrustAnchor } from '../../../lambdas/scanner/checks/dns/trust-anchors.js';
import { createDnsClient } from '../../../lambdas/scanner/net/dns-client.js';
import { checkContext, runWith } from '../../support/check-context.js';
import { readZoneFile, type ZoneTextRecord } from '../../support/zone-text.js';
import { startZoneServer, type ZoneRecord, type ZoneServer } from '../../support/zone-server.js';

const fixtures = new URL('../../fixtures/dns/dane/', import.meta.url);
const zones = readZoneFile(new URL('zones.txt', fixtures).pathname);
const anchorText = readFileSync(new URL('trust-anchor.ds', fixtures), 'utf8').trim();

const soa: ZoneRecord = { name: 'dane.test', type: 'SOA', ttl: 3600, data: { mname: 'ns1.dane.test', rname: 'hostmaster.dane.test', serial: 1, refresh: 3600, retry: 600, expire: 604800, minimum: 300 } };
const mxTo = (...hosts: string[]): ZoneRecord[] => [soa, ...hosts.map((exchange, i) => ({ name: 'dane.test', type: 'MX', ttl: 300, data: { preference: 10 * (i + 1), exchange } }) as ZoneRecord)];

const isTlsaSig = (r: ZoneTextRecord, owner: string) => r.type === 'RRSIG' && r.name === owner && (r as dnsPacket.RrsigAnswer).data.typeCovered === 'TLSA';

let server: ZoneServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The email probe against a zone server for dane.test (MX `hosts`) and the signed fixture zones. */
async function probe(hosts: string[], dnssecZones: ZoneTextRecord[] = zones, options: { silentWhen?: (name: string, type: string) => boolean } = {}) {
  server = await startZoneServer({ records: mxTo(...hosts), dnssecZones, ...options });
  return probeEmail({
    dns: createDnsClient({ resolvers: [{ host: '127.0.0.1', port: server.port }], timeoutMs: 400 }),
    smtp: { starttls: () => Promise.reject(new Error('no SMTP in this test')) },
    http: { request: () => Promise.reject(new Error('no HTTP in this test')) },
    domain: 'dane.test',
    // The MX addresses are on loopback: no SMTP conversation, DNS only.
    allowPrivateTargets: false,
    smtpPort: 25,
    smtpTimeoutMs: 1000,
    ehloName: EHLO_NAME,
    dkimBudgetMs: 200,
    trustAnchors: [parseTrustAnchor(anchorText)],
  });
}

const daneFindings = (findings: { id: string; severity: string; evidence?: string }[]) => findings.filter((f) => f.id.startsWith('email.dane.')).map((f) => [f.id, f.severity, f.evidence]);

describe("DANE: each MX's TLSA RRset validated with the DNSSEC chain", () => {
  it('tells secure, bogus (an expired RRSIG), insecure (no DS at the parent) and unsigned TLSA records apart, and reports them as senders treat them', async () => {
    // Prepare
    server = await startZoneServer({ records: mxTo('mail.signed.example', 'mail.stale.example', 'mail.nods.example', 'mail.plain.example'), dnssecZones: zones });
    const context = checkContext({ dnsPort: server.port, host: 'www.dane.test', domain: 'dane.test', settings: { allowPrivateTargets: false, dnssecTrustAnchors: [anchorText] } });
    // Act
    const result = await runWith(emailCheck, context);
    // Assess
    expect(result.status).toBe('ok');
    const mx = (result.data as { mx: { host: string; tlsaSigned?: boolean; tlsaDnssec?: string; tlsaDnssecReason?: string }[] }).mx;
    expect(mx.map((m) => [m.host, m.tlsaSigned, m.tlsaDnssec, m.tlsaDnssecReason])).toEqual([
      ['mail.signed.example', true, 'secure', 'Every link validates from the trust anchor for example down to signed.example'],
      ['mail.stale.example', true, 'bogus', expect.stringMatching(/^TLSA _25\._tcp\.mail\.stale\.example: the signature by key \d+ \(ECDSAP256SHA256\) expired on 2020-02-01$/)],
      ['mail.nods.example', true, 'insecure', 'example publishes no DS record for nods.example: the zone is not signed as far as resolvers can tell'],
      ['mail.plain.example', false, 'insecure', 'example publishes no DS record for plain.example: the zone is not signed as far as resolvers can tell'],
    ]);
    expect(daneFindings(result.findings)).toEqual([
      [
        'email.dane.unsigned',
        'medium',
        '_25._tcp.mail.nods.example: 1 TLSA record, signed, but no chain of trust leads to them: example publishes no DS record for nods.example: the zone is not signed as far as resolvers can tell; _25._tcp.mail.plain.example: 1 TLSA record, no RRSIG',
      ],
      ['email.dane.bogus', 'high', expect.stringMatching(/^_25\._tcp\.mail\.stale\.example: TLSA _25\._tcp\.mail\.stale\.example: the signature by key \d+ \(ECDSAP256SHA256\) expired on 2020-02-01$/)],
    ]);
    // The chain was asked for the MX hosts' zones, with DO and CD, each question once.
    const chain = server.queries.filter((q) => q.type === 'DNSKEY' || q.type === 'DS');
    expect(chain.every((q) => q.dnssec && q.checkingDisabled)).toBe(true);
    expect(new Set(chain.filter((q) => q.type === 'DNSKEY').map((q) => q.name))).toEqual(new Set(['example', 'signed.example', 'stale.example', 'nods.example', 'plain.example']));
    expect(chain.filter((q) => q.type === 'DNSKEY' && q.name === 'example')).toHaveLength(1);
  });

  it('calls a TLSA RRSIG whose signature bytes were changed bogus: the signature does not verify', async () => {
    // Prepare: one byte of mail.signed.example's TLSA signature flipped.
    const owner = '_25._tcp.mail.signed.example';
    const tampered = zones.map((r) => {
      if (!isTlsaSig(r, owner)) return r;
      const data = (r as dnsPacket.RrsigAnswer).data;
      const signature = Buffer.from(data.signature);
      signature.writeUInt8(signature.readUInt8(7) ^ 0x01, 7);
      return { ...r, data: { ...data, signature } } as ZoneTextRecord;
    });
    // Act
    const snapshot = await probe(['mail.signed.example', 'mail2.signed.example'], tampered);
    // Assess: mail2's RRset, untouched, still validates.
    expect(snapshot.mx.mx.map((m) => [m.host, m.tlsaDnssec])).toEqual([
      ['mail.signed.example', 'bogus'],
      ['mail2.signed.example', 'secure'],
    ]);
    expect(snapshot.mx.mx[0]!.tlsaDnssecReason).toMatch(/^TLSA _25\._tcp\.mail\.signed\.example: the signature by key \d+ \(ECDSAP256SHA256\) does not verify$/);
    const findings = analyzeEmail(snapshot).findings;
    expect(daneFindings(findings)).toEqual([['email.dane.bogus', 'high', `_25._tcp.mail.signed.example: ${snapshot.mx.mx[0]!.tlsaDnssecReason}`]]);
    expect(findings.find((f) => f.id === 'email.dane.bogus')).toMatchObject({ title: expect.stringMatching(/fail DNSSEC validation/), recommendation: expect.stringMatching(/Re-sign/) });
  });

  it('calls TLSA records served without their RRSIG from a signed zone bogus, not unsigned: the zone says they must be signed', async () => {
    const owner = '_25._tcp.mail2.signed.example';
    const snapshot = await probe(['mail2.signed.example'], zones.filter((r) => !isTlsaSig(r, owner)));
    expect(snapshot.mx.mx.map((m) => [m.host, m.tlsaSigned, m.tlsaDnssec, m.tlsaDnssecReason])).toEqual([['mail2.signed.example', false, 'bogus', 'TLSA _25._tcp.mail2.signed.example has no signature']]);
    expect(daneFindings(analyzeEmail(snapshot).findings).map(([id]) => id)).toEqual(['email.dane.bogus']);
  });

  it('says nothing either way when the chain cannot be fetched (DNSKEY queries time out): indeterminate, not checked, not passed', async () => {
    const snapshot = await probe(['mail.signed.example'], zones, { silentWhen: (_name, type) => type === 'DNSKEY' });
    expect(snapshot.mx.mx.map((m) => [m.host, m.tlsaDnssec])).toEqual([['mail.signed.example', 'indeterminate']]);
    expect(snapshot.mx.mx[0]!.tlsaDnssecReason).toMatch(/^Above the domain: The DNSKEY query for example failed: ETIMEOUT/);
    const output = analyzeEmail(snapshot);
    expect(daneFindings(output.findings)).toEqual([]);
    expect((output.data as { mx: { tlsaDnssec?: string }[] }).mx[0]).toMatchObject({ tlsaDnssec: 'indeterminate' });
  });
});

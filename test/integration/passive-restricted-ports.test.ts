import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, verifyAddressByCode, verifyDomainByDns } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { postJsonFrom } from '../support/post-from.js';
import { tableItems } from '../support/table.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';
import { activeScanTarget } from '../../lambdas/use-cases/run-scan.js';

/**
 * Passive means browser-like (issue 28 finding 6, DECISIONS "Scan modes"): a passive lead for a site
 * on a port browsers refuse (the Fetch standard's bad ports: http://victim:25/ is a mail server) is
 * refused before anything is stored, with the reason; the domain's proven owner (active) may still
 * scan any port. Over the whole local stack, the zone server answering the stack's DNS.
 */
let t: TestStack;
let zone: ZoneServer;

beforeAll(async () => {
  zone = await startZoneServer({ records: [...TEST_ZONE_RECORDS] });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await zone?.close();
});

const url = (path: string) => `${t.stack.url}${path}`;
const leadsAndAudits = async () => (await tableItems(t)).filter((item) => ['lead', 'audit'].includes(String(item.type)));

const verifyAddress = (sourceIp: string, email: string, webUrl: string) => verifyAddressByCode(t, sourceIp, email, webUrl, 'Victim Mail');

describe('a passive lead for a site on a port browsers refuse', () => {
  it('is refused with the reason (target_port_restricted, ERR_UNSAFE_PORT), and no lead or audit is stored', async () => {
    // Prepare: a foreign address, proven by its code: passive at best.
    const webUrl = 'http://mail.victim.test:25/';
    await verifyAddress('127.0.28.61', 'visitor@mailbox.test', webUrl);
    const before = await leadsAndAudits();

    // Act
    const reply = await postJsonFrom('127.0.28.61', url('/api/leads'), { ...validLead, email: 'visitor@mailbox.test', webUrl });

    // Assess
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: 'target_port_restricted',
      message:
        'Browsers refuse to open web addresses on port 25 (ERR_UNSAFE_PORT: it belongs to another service, such as mail or file sharing), so http://mail.victim.test:25/ cannot be scanned without proof that the site is yours. Use the site’s usual web address, or verify the domain for a full scan.',
    });
    expect(await leadsAndAudits()).toEqual(before);
  });

  it('is accepted on the site’s own web port (8443) for the same passive requester', async () => {
    const webUrl = 'https://shop.victim.test:8443/';
    await verifyAddress('127.0.28.62', 'visitor2@mailbox.test', webUrl);

    const reply = await postJsonFrom('127.0.28.62', url('/api/leads'), { ...validLead, email: 'visitor2@mailbox.test', webUrl });

    expect(reply.status).toBe(201);
    const audit = await t.stack.deps.audits.getAudit(String(reply.body.auditId));
    expect([audit?.mode, audit?.targetUrl]).toEqual(['passive', webUrl]);
    await waitForAudit(t.stack.url, String(reply.body.auditId), 30_000);
  });
});

describe('an active lead (the domain’s proven owner) for the same port', () => {
  it('is accepted: an active scan may use any port', async () => {
    // Prepare: the owner signed in, owner.test verified by its TXT record.
    const owner = await signIn(t, 'it@owner.test');
    await verifyDomainByDns(t, zone, owner, 'owner.test');
    const webUrl = 'http://mail.owner.test:25/';

    // Act
    const reply = await api(t, 'POST', '/api/leads', owner.token, { ...validLead, email: 'it@owner.test', webUrl });

    // Assess
    expect(reply.status, reply.text).toBe(201);
    const audit = await t.stack.deps.audits.getAudit(String(reply.body.auditId));
    expect([audit?.mode, audit?.targetUrl, audit?.ownerId]).toEqual(['active', webUrl, owner.userId]);
    await waitForAudit(t.stack.url, String(reply.body.auditId), 30_000);
  });
});

describe('an active audit that the per-target limit turns passive, for a site on a restricted port', () => {
  it('fails with both reasons instead of scanning like no browser would', async () => {
    // Prepare: the owner of owner2.test (verified), and the domain's hourly budget of active scans used up.
    const owner = await signIn(t, 'it@owner2.test');
    await verifyDomainByDns(t, zone, owner, 'owner2.test');
    for (let i = 0; i < t.stack.deps.config.SCAN_ACTIVE_PER_TARGET_PER_HOUR; i += 1) await t.stack.deps.rateLimits.consume(`scan:active:${activeScanTarget('owner2.test')}`, t.stack.deps.config.SCAN_ACTIVE_PER_TARGET_PER_HOUR, 3600);
    const webUrl = 'http://mail.owner2.test:25/';

    // Act
    const reply = await api(t, 'POST', '/api/leads', owner.token, { ...validLead, email: 'it@owner2.test', webUrl });
    const ended = await waitForAudit(t.stack.url, String(reply.body.auditId), 30_000);

    // Assess: stored active (the owner's right), ended before any scan with the limit's reason and the port's.
    expect(reply.status, reply.text).toBe(201);
    const audit = await t.stack.deps.audits.getAudit(String(reply.body.auditId));
    expect([ended.status, audit?.mode, audit?.checks]).toEqual(['failed', 'active', []]);
    expect(audit?.errorMessage).toMatch(/^This site already had \d+ active scans from Rampart in the last hour .*so this one ran passive\. Browsers refuse to open web addresses on port 25 \(ERR_UNSAFE_PORT/);
  });
});


import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingMetrics } from '../../lambdas/adapters/recording-metrics.adapter.js';
import { configSchema } from '../../lambdas/config.js';
import { BUSINESS_METRICS } from '../../lambdas/domain/metrics.port.js';
import type { MonitoringChange } from '../../lambdas/domain/monitoring-diff.js';
import { smsCountryAllowed } from '../../lambdas/domain/phone.js';
import { deliverAlert, listAlerts } from '../../lambdas/use-cases/monitoring.js';
import { notify } from '../../lambdas/use-cases/notifications.js';
import { api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { mailbox, smsOutbox } from '../support/post-from.js';

/**
 * SMS pumping (issue 30 item 5): SNS has no IAM condition per destination country, so the product
 * sends SMS only to the countries SMS_COUNTRIES names (default AU). Over the local stack (the SMS
 * outbox stands for SNS): a Monitor Plus alert to a number elsewhere goes by email only, the SMS is
 * skipped, logged and counted (SmsRefused); a message already queued is checked again when it is sent.
 * Saving such a number is not refused: the profile's number is contact data too (the lead form takes
 * any country's mobile), only texts are limited.
 */
let t: TestStack;
const metrics = new RecordingMetrics();
const UK_MOBILE = '+447400123456';
const NZ_MOBILE = '+64211234567';

beforeAll(async () => {
  t = await startTestStack({ SMS_COUNTRIES: 'AU,NZ' }, { metrics });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function monitorPlusWithMobile(email: string, mobileNumber: string): Promise<TestUser> {
  const user = await signIn(t, email, 'Sam');
  const saved = await api(t, 'PUT', '/api/me', user.token, { firstName: 'Sam', lastName: 'Tester', company: '', mobileNumber });
  expect(saved.status).toBe(200);
  await setSubscription(t, user.userId, 'monitor-plus', 'active');
  return user;
}

const change = (): MonitoringChange => ({ type: 'port_opened', domain: 'sms.example.test', dedupeKey: `port:${randomUUID()}`, port: 3306, service: 'mysql', risk: 'high' });
const textsTo = async (to: string) => (await smsOutbox(t.stack.url)).filter((m) => m.to === to);
const refused = () => metrics.total(BUSINESS_METRICS.smsRefused);

describe('SMS only to the countries SMS_COUNTRIES names', () => {
  it('reads SMS_COUNTRIES as upper-case ISO codes, AU by default, and refuses anything else', () => {
    expect(configSchema.parse({}).SMS_COUNTRIES).toEqual(['AU']);
    expect(configSchema.parse({ SMS_COUNTRIES: 'au, nz' }).SMS_COUNTRIES).toEqual(['AU', 'NZ']);
    expect(configSchema.safeParse({ SMS_COUNTRIES: 'AUS' }).success).toBe(false);
    expect(configSchema.safeParse({ SMS_COUNTRIES: ' , ' }).success).toBe(false);
    expect(smsCountryAllowed('+61412345678', ['AU'])).toBe(true);
    expect(smsCountryAllowed(UK_MOBILE, ['AU'])).toBe(false);
    expect(smsCountryAllowed('not a number', ['AU'])).toBe(false);
  });

  it('alerts a Monitor Plus owner with a UK mobile by email only: no SMS, counted once, listed as email', { timeout: 60_000 }, async () => {
    // Prepare: the number is saved (contact data), on the plan that texts alerts.
    const user = await monitorPlusWithMobile('uk-owner@example.test', UK_MOBILE);
    const before = refused();

    // Act
    const outcome = await deliverAlert(t.stack.deps, { userId: user.userId, domain: 'sms.example.test', changes: [change()], auditId: randomUUID() });

    // Assess
    expect(outcome).toBe('sent');
    expect(await textsTo(UK_MOBILE)).toEqual([]);
    expect(refused() - before).toBe(1);
    expect((await mailbox(t.stack.mailboxUrl, user.email)).map((m) => m.subject)).toEqual([expect.stringContaining('alert for sms.example.test')]);
    const listed = (await listAlerts(t.stack.deps, { userId: user.userId, email: user.email, firstName: '', lastName: '' }, {})).alerts;
    expect(listed.map((a) => a.channel)).toEqual(['email']);
  });

  it('texts a number in a listed country other than AU (NZ), uncounted', { timeout: 60_000 }, async () => {
    const user = await monitorPlusWithMobile('nz-owner@example.test', NZ_MOBILE);
    const before = refused();

    await deliverAlert(t.stack.deps, { userId: user.userId, domain: 'sms.example.test', changes: [change()], auditId: randomUUID() });

    expect((await textsTo(NZ_MOBILE)).map((m) => m.body)).toEqual([expect.stringContaining('sms.example.test')]);
    expect(refused() - before).toBe(0);
  });

  it('checks again at send time: an SMS queued for a number outside the list never reaches the sender, and is counted', async () => {
    const before = refused();

    const outcome = await notify(t.stack.deps, { id: randomUUID(), kind: 'alert', message: { channel: 'sms', sms: { to: '+447400123457', body: 'Rampart: test' } }, about: {} });

    expect(outcome).toBe('sent');
    expect(await textsTo('+447400123457')).toEqual([]);
    expect(refused() - before).toBe(1);
  });
});

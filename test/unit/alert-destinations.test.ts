import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDestinationSchema, DISABLE_AFTER_ABANDONED } from '../../lambdas/domain/alert-destination.contract.js';
import {
  alertDestinationEventOf,
  changesFor,
  checkDestinationUrl,
  deliveryRequest,
  type DestinationAlert,
  shouldDisable,
  slackPayload,
  teamsPayload,
  urlHint,
  verifyWebhook,
  webhookPayload,
} from '../../lambdas/domain/alert-destinations.js';
import type { MonitoringChange } from '../../lambdas/domain/monitoring-diff.js';
import { NOTIFICATION_RETRY, nextAttemptAfter } from '../../lambdas/domain/notifications.js';
import { getPlan, planIncludes } from '../../lambdas/domain/plans.js';
import { readmeWebhookVerifier } from '../support/readme-recipe.js';

const newIssue: MonitoringChange = { type: 'finding_new', domain: 'shop.example.test', dedupeKey: 'k1', findingId: 'tls.protocol.tls10-enabled', title: 'TLS 1.0 <enabled> & old', severity: 'high', category: 'tls' };
const fixed: MonitoringChange = { type: 'finding_resolved', domain: 'shop.example.test', dedupeKey: 'k2', findingId: 'http.headers.csp-missing', title: 'CSP missing', severity: 'medium', category: 'http' };
const grade: MonitoringChange = { type: 'grade_changed', domain: 'shop.example.test', dedupeKey: 'k3', from: 'B', to: 'D', direction: 'down', fromScore: 85, toScore: 65 };
const port: MonitoringChange = { type: 'port_opened', domain: 'shop.example.test', dedupeKey: 'k4', port: 3306, service: 'mysql', risk: 'high' };
const alert: DestinationAlert = { id: 'a1b2', domain: 'shop.example.test', reportUrl: 'https://rampart.example/results/abc', createdAt: '2026-11-27T00:00:00.000Z', changes: [newIssue, grade] };
const context = { productName: 'Rampart', alert };
const SECRET = 'whsec_test_secret_for_unit_tests';

describe('alert destination payloads', () => {
  it('sends Slack a text fallback and blocks: a header, the changes (escaped for mrkdwn) and the report link', () => {
    // Act
    const payload = slackPayload(context) as { text: string; blocks: { type: string; text: { type: string; text: string } }[] };

    // Assess
    expect(payload.text).toBe('Rampart alert for shop.example.test: 2 changes');
    expect(payload.blocks.map((block) => block.type)).toEqual(['header', 'section', 'section']);
    expect(payload.blocks[0]!.text).toEqual({ type: 'plain_text', text: 'Rampart alert for shop.example.test: 2 changes', emoji: false });
    expect(payload.blocks[1]!.text.text).toBe('• New issue: New high issue: TLS 1.0 &lt;enabled&gt; &amp; old\n• Grade change: Grade dropped from B to D');
    expect(payload.blocks[2]!.text.text).toBe('<https://rampart.example/results/abc|Open the report>');
  });

  it('sends Teams a message with one Adaptive Card attachment, as a Workflows webhook expects', () => {
    // Act
    const payload = teamsPayload(context) as { type: string; attachments: { contentType: string; content: Record<string, unknown> }[] };

    // Assess
    expect(payload.type).toBe('message');
    expect(payload.attachments).toHaveLength(1);
    const [attachment] = payload.attachments;
    expect(attachment!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(attachment!.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json' });
    expect((attachment!.content.body as { text: string }[]).map((block) => block.text)).toEqual([
      'Rampart alert for shop.example.test: 2 changes',
      'New issue: New high issue: TLS 1.0 <enabled> & old',
      'Grade change: Grade dropped from B to D',
    ]);
    expect(attachment!.content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the report', url: 'https://rampart.example/results/abc' }]);
  });

  it('sends the generic webhook the changes as monitoring found them, each with its event and summary', () => {
    // Act
    const payload = webhookPayload(context);

    // Assess
    expect(payload).toMatchObject({ id: 'a1b2', type: 'alert', product: 'Rampart', domain: 'shop.example.test', reportUrl: 'https://rampart.example/results/abc', events: ['issue_new', 'grade_changed'] });
    expect(payload.changes).toEqual([
      { event: 'issue_new', summary: 'New high issue: TLS 1.0 <enabled> & old', ...newIssue },
      { event: 'grade_changed', summary: 'Grade dropped from B to D', ...grade },
    ]);
  });

  it('maps each monitoring change to the event a destination chooses, a new open port being a new issue', () => {
    // Assess
    expect([newIssue, fixed, grade, port].map(alertDestinationEventOf)).toEqual(['issue_new', 'issue_fixed', 'grade_changed', 'issue_new']);
    expect(changesFor({ events: ['issue_fixed', 'grade_changed'] }, [newIssue, fixed, grade, port])).toEqual([fixed, grade]);
  });
});

describe('the generic webhook signature', () => {
  it('verifies with the README recipe, and fails for a tampered body, another secret, or a timestamp over 5 minutes old', () => {
    // Prepare
    const verify = readmeWebhookVerifier();
    const now = 1_800_000_000;
    const { body, headers } = deliveryRequest({ kind: 'webhook', secret: SECRET }, context, now);

    // Assess
    expect(headers['x-rampart-signature']).toBe(`v1=${createHmac('sha256', SECRET).update(`${now}.${body}`).digest('hex')}`);
    expect(headers['x-rampart-timestamp']).toBe(String(now));
    expect(headers['x-rampart-delivery']).toBe('a1b2');
    expect(verify(SECRET, headers, body, now + 10)).toBe(true);
    expect(verify(SECRET, headers, body.replace('shop.example.test', 'evil.example.test'), now + 10)).toBe(false);
    expect(verify('whsec_another', headers, body, now + 10)).toBe(false);
    expect(verify(SECRET, headers, body, now + 301)).toBe(false);
    expect(verify(SECRET, headers, body, now + 300)).toBe(true);
    // The domain's own check agrees with the README's.
    expect(verifyWebhook(SECRET, { timestamp: headers['x-rampart-timestamp'], signature: headers['x-rampart-signature'] }, body, now)).toBe(true);
    expect(verifyWebhook(SECRET, { timestamp: headers['x-rampart-timestamp'], signature: headers['x-rampart-signature'] }, `${body} `, now)).toBe(false);
  });

  it('signs nothing for Slack and Teams (their URL is the credential)', () => {
    // Act
    const { headers } = deliveryRequest({ kind: 'slack' }, context, 1_800_000_000);

    // Assess
    expect(Object.keys(headers).sort()).toEqual(['accept', 'content-type']);
  });
});

describe('delivery rules', () => {
  it('retries on the outbox schedule: at once, then after 5, 15 and 45 minutes and 3 hours, then gives up', () => {
    // Prepare
    const failedAt = new Date('2026-11-27T00:00:00.000Z');

    // Act
    const waits = [1, 2, 3, 4, 5].map((attempts) => nextAttemptAfter(attempts, failedAt)?.getTime());

    // Assess
    expect(NOTIFICATION_RETRY.maxAttempts).toBe(5);
    expect(waits.map((at) => (at === undefined ? undefined : (at - failedAt.getTime()) / 60_000))).toEqual([5, 15, 45, 180, undefined]);
  });

  it(`disables a destination after ${DISABLE_AFTER_ABANDONED} alerts in a row were given up, not before`, () => {
    // Assess
    expect(DISABLE_AFTER_ABANDONED).toBe(5);
    expect([1, 2, 3, 4].map(shouldDisable)).toEqual([false, false, false, false]);
    expect(shouldDisable(5)).toBe(true);
  });

  it('takes only https Slack, Teams workflow and webhook addresses in production, without credentials', () => {
    // Assess
    expect(checkDestinationUrl('slack', 'https://hooks.slack.com/services/T000/B000/XXXX', false)).toBe('https://hooks.slack.com/services/T000/B000/XXXX');
    expect(() => checkDestinationUrl('slack', 'https://hooks.slack.com.evil.test/services/T/B/X', false)).toThrow(/hooks.slack.com/);
    expect(() => checkDestinationUrl('slack', 'http://hooks.slack.com/services/T/B/X', false)).toThrow(/https/);
    expect(checkDestinationUrl('teams', 'https://prod-12.australiasoutheast.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x', false)).toContain('logic.azure.com');
    expect(checkDestinationUrl('teams', 'https://default1234.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/abc', false)).toContain('powerplatform.com');
    expect(() => checkDestinationUrl('teams', 'https://teams.evil.test/workflows/abc', false)).toThrow(/Teams workflow/);
    expect(() => checkDestinationUrl('webhook', 'http://hooks.example.test/x', false)).toThrow(/https/);
    expect(() => checkDestinationUrl('webhook', 'https://user:pass@hooks.example.test/x', false)).toThrow(/user name or password/);
    // Local testing (SCAN_ALLOW_PRIVATE_TARGETS) lets loopback receivers stand in for Slack and Teams.
    expect(checkDestinationUrl('slack', 'http://127.0.0.1:8080/slack', true)).toBe('http://127.0.0.1:8080/slack');
  });

  it('shows an address masked after creation, and refuses a destination without events', () => {
    // Assess
    expect(urlHint('https://hooks.slack.com/services/T000/B000/XXXX')).toBe('https://hooks.slack.com/services/…');
    expect(createDestinationSchema.safeParse({ kind: 'slack', name: 'Ops', url: 'https://hooks.slack.com/services/T/B/X', events: [] }).success).toBe(false);
    expect(createDestinationSchema.parse({ kind: 'slack', name: ' Ops ', url: 'https://hooks.slack.com/services/T/B/X', events: ['grade_changed', 'issue_new', 'issue_new'] }).events).toEqual(['issue_new', 'grade_changed']);
  });

  it('comes with Monitor Plus only', () => {
    // Assess
    expect(planIncludes('monitor-plus', 'alert-destinations')).toBe(true);
    expect(planIncludes('monitor-lite', 'alert-destinations')).toBe(false);
    expect(planIncludes('trial', 'alert-destinations')).toBe(false);
    expect(getPlan('monitor-plus').features).toContain('Alerts in Slack, Microsoft Teams or a signed webhook');
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import type { Finding } from '../../lambdas/domain/audit.js';
import { monthLabel } from '../../lambdas/domain/monthly-report.contract.js';
import { grade, riskLevel, riskScore } from '../../lambdas/domain/scoring.js';
import { make as makeScheduler } from '../../lambdas/workers/monitoring-scheduler.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { readPdf } from '../support/pdf-text.js';

/**
 * The monthly report over the local stack (DECISIONS "Plan features"): the real monitoring
 * scheduler run with an injected clock just after the current month ends, real scans stored through
 * the audits adapter, the email read back from SES local with its PDF attachment, and the signed-in
 * download. The scan worker is stopped: the rescans the scheduler queues stay queued.
 */

let t: TestStack;
let plus: TestUser;
let lite: TestUser;
let quiet: TestUser;
let trial: TestUser;
let cancelled: TestUser;

const real = new Date();
const [YEAR, MONTH_INDEX] = [real.getUTCFullYear(), real.getUTCMonth()];
const MONTH = `${YEAR}-${String(MONTH_INDEX + 1).padStart(2, '0')}`;
const MONTH_START = Date.UTC(YEAR, MONTH_INDEX, 1);
const NEXT_MONTH_START = Date.UTC(YEAR, MONTH_INDEX + 1, 1);
/** The first scheduler run after the month ended. */
const RUN_AT = new Date(NEXT_MONTH_START + 10 * 60_000);
const DAY = 86_400_000;
const PLUS_DOMAIN = 'plus-shop.example.test';
const CERT_EXPIRY = new Date(NEXT_MONTH_START + 20 * DAY).toISOString();

const finding = (id: string, severity: Finding['severity']): Finding => ({ id, check: 'http', title: `Planted ${id}`, severity, category: 'Web Security', description: 'Planted.', recommendation: 'Fix it.' });
const DB = finding('http.planted-database', 'critical');
const CSP = finding('http.planted-csp', 'medium');

interface StoreEmail {
  subject: string;
  destination: { to: string[] };
  body: { text?: string; html?: string };
  attachments: { filename?: string; contentType: string; content: string; size: number }[];
}

async function mailTo(address: string): Promise<StoreEmail[]> {
  const store = (await fetch(`${t.stack.mailboxUrl}/store`).then((r) => r.json())) as { emails: StoreEmail[] };
  return store.emails.filter((e) => e.destination.to.includes(address) && e.subject.includes('monthly security report'));
}

/** One run of the real monitoring scheduler with its clock at `now`. */
const runScheduler = (now: Date) => makeScheduler(buildDeps(t.stack.config, { clock: { now: () => now } }))();

const verified = (user: TestUser, domain: string) => addDomain(t, user.userId, domain, { at: new Date(MONTH_START - 10 * DAY).toISOString() });

/** A completed scan of the user's, stored the way the worker stores one: the http check's findings and a certificate on 443. */
async function completedScan(user: TestUser, domain: string, completedAt: number, findings: Finding[]): Promise<string> {
  const { audits } = t.stack.deps;
  const id = randomUUID();
  await audits.createAudit({ id, ownerId: user.userId, targetUrl: `https://${domain}/`, host: domain, status: 'queued', createdAt: new Date(completedAt - 60_000).toISOString(), checks: [] });
  await audits.markInProgress(id, new Date(completedAt - 50_000).toISOString());
  await audits.saveCheck(id, { name: 'http', status: 'ok', findings, data: { url: `https://${domain}/`, analyzed: 'https', observatory: { statusCode: 200 } } });
  await audits.saveCheck(id, { name: 'tls', status: 'ok', findings: [], data: { ports: [{ port: 443, certificate: { notAfter: CERT_EXPIRY, subject: `CN=${domain}` } }] } });
  const score = riskScore(findings);
  await audits.complete(id, { score, grade: grade(score), riskLevel: riskLevel(score), completedAt: new Date(completedAt).toISOString() });
  return id;
}

async function download(user: TestUser, file: string) {
  const response = await fetch(`${t.stack.url}/api/me/reports/monthly/${file}`, { headers: { authorization: `Bearer ${user.token}` } });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

beforeAll(async () => {
  t = await startTestStack();
  await t.stack.stopWorker();
  const user = (name: string) => signIn(t, `${name}@monthly.example.test`, name);
  [plus, lite, quiet, trial, cancelled] = await Promise.all([user('plus'), user('lite'), user('quiet'), user('trial'), user('cancelled')]);
  // Signed in once: the profile exists, as for anyone who bought a plan.
  for (const who of [plus, lite, quiet, trial, cancelled]) expect((await api(t, 'GET', '/api/me', who.token)).status).toBe(200);
  await setSubscription(t, plus.userId, 'monitor-plus', 'active');
  await setSubscription(t, lite.userId, 'monitor-lite', 'active');
  await setSubscription(t, quiet.userId, 'monitor-lite', 'active');
  await setSubscription(t, cancelled.userId, 'monitor-plus', 'active');
  await setSubscription(t, cancelled.userId, 'monitor-plus', 'canceled');
  for (const [who, domain] of [[plus, PLUS_DOMAIN], [lite, 'lite-shop.example.test'], [quiet, 'quiet-shop.example.test'], [trial, 'trial-shop.example.test'], [cancelled, 'cancelled-shop.example.test']] as const) {
    await verified(who, domain);
  }
  // Plus: a baseline before the month (a medium issue, 95), a critical issue found on day 3 (75), fixed with the CSP on day 10 (100).
  await completedScan(plus, PLUS_DOMAIN, MONTH_START - 2 * DAY, [CSP]);
  await completedScan(plus, PLUS_DOMAIN, MONTH_START + 3 * DAY, [CSP, DB]);
  await completedScan(plus, PLUS_DOMAIN, MONTH_START + 10 * DAY, []);
  await t.stack.deps.alerts.record({ id: randomUUID(), userId: plus.userId, domain: PLUS_DOMAIN, sentAt: new Date(MONTH_START + 3 * DAY + 60_000).toISOString(), channel: 'email', summary: '1 new issue (1 critical)', changes: [], auditId: randomUUID() });
  await completedScan(lite, 'lite-shop.example.test', MONTH_START + 5 * DAY, [CSP]);
  await completedScan(trial, 'trial-shop.example.test', MONTH_START + 5 * DAY, [CSP]);
  await completedScan(cancelled, 'cancelled-shop.example.test', MONTH_START + 5 * DAY, [CSP]);
  // Quiet has turned 'Email alerts' off: the report is made, not emailed.
  const preferences = await api(t, 'PUT', '/api/me/notifications', quiet.token, { emailAlerts: false, scanCompletions: true, securityUpdates: true, marketingEmails: false });
  expect(preferences.status).toBe(200);
}, 90_000);

afterAll(async () => {
  await t?.close();
});

describe('monthly reports', () => {
  it('emails each subscriber exactly one report of the month, with the PDF attached, even from two runs at once', async () => {
    // Act: two overlapping scheduler runs, as EventBridge could start them.
    const runs = await Promise.all([runScheduler(RUN_AT), runScheduler(RUN_AT)]);

    // Assess
    // Plus and Lite emailed, Quiet not: whichever run claimed each.
    expect(runs[0].monthlyReportsSent + runs[1].monthlyReportsSent).toBe(2);
    const mails = await mailTo(plus.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(`Rampart monthly security report: ${monthLabel(MONTH)}`);
    expect(mail!.body.text).toContain(`Your Rampart security report for ${monthLabel(MONTH)} is attached (rampart-monthly-report-${MONTH}.pdf).`);
    expect(mail!.body.text).toContain(`${PLUS_DOMAIN}: score 95 (A) -> 100 (A); 2 scans, 1 issue found, 2 resolved, 1 alert; open issues now: 0 critical, 0 high, 0 medium, 0 low.`);
    expect(mail!.body.text).toContain(`${t.stack.url}/api/alerts/unsubscribe?token=`);
    expect(mail!.body.html).toContain(PLUS_DOMAIN);
    expect(mail!.attachments).toHaveLength(1);
    const attachment = mail!.attachments[0]!;
    expect([attachment.filename, attachment.contentType]).toEqual([`rampart-monthly-report-${MONTH}.pdf`, 'application/pdf']);

    const pdf = await readPdf(Buffer.from(attachment.content, 'base64'));
    // The cover and the domain's section; the Essential Eight table (issue 21) runs onto a third page.
    expect(pdf.pages).toBe(3);
    expect(pdf.lines.slice(0, 3)).toEqual(['Rampart', 'Monthly Security Report', monthLabel(MONTH)]);
    for (const line of [
      'Monitor Plus',
      plus.email,
      PLUS_DOMAIN,
      `95 / 100, grade A (scan of ${new Date(MONTH_START - 2 * DAY).toISOString().slice(0, 10)})`,
      `100 / 100, grade A (scan of ${new Date(MONTH_START + 10 * DAY).toISOString().slice(0, 10)})`,
      'Scans this month (2)',
      'Issues found (1)',
      'Planted http.planted-database',
      'Issues resolved (2)',
      'Alerts sent (1)',
      '1 new issue (1 critical)',
      '0 open issues: 0 critical, 0 high, 0 medium, 0 low' + ` (scan of ${new Date(MONTH_START + 10 * DAY).toISOString().slice(0, 10)}).`,
      `${CERT_EXPIRY.slice(0, 10)} (19 days left; port 443, CN=${PLUS_DOMAIN})`,
      'Essential Eight readiness (Maturity Level One)',
      'Multi-factor authentication',
    ]) {
      expect(pdf.lines).toContain(line);
    }

    const liteMails = await mailTo(lite.email);
    expect(liteMails).toHaveLength(1);
    expect(liteMails[0]!.body.text).toContain('lite-shop.example.test: score 95 (A); 1 scan, 1 issue found, 0 resolved, 0 alerts;');
  });

  it('sends nothing more at the next runs of the same month', async () => {
    const before = (await mailTo(plus.email)).length + (await mailTo(lite.email)).length;

    const later = await runScheduler(new Date(RUN_AT.getTime() + 15 * 60_000));
    const muchLater = await runScheduler(new Date(NEXT_MONTH_START + 20 * DAY));

    expect([later.monthlyReportsSent, muchLater.monthlyReportsSent]).toEqual([0, 0]);
    expect((await mailTo(plus.email)).length + (await mailTo(lite.email)).length).toBe(before);
  });

  it('sends nothing to a trial or a cancelled plan, and lists no report for them', async () => {
    expect(await mailTo(trial.email)).toEqual([]);
    expect(await mailTo(cancelled.email)).toEqual([]);
    for (const user of [trial, cancelled]) {
      const list = await api(t, 'GET', '/api/me/reports/monthly', user.token);
      expect([list.status, list.body.reports]).toEqual([200, []]);
      expect((await download(user, `${MONTH}.pdf`)).status).toBe(404);
    }
  });

  it('does not email a subscriber whose Email alerts are off, but keeps the report for download', async () => {
    expect(await mailTo(quiet.email)).toEqual([]);
    const list = await api(t, 'GET', '/api/me/reports/monthly', quiet.token);
    expect(list.body.reports).toEqual([
      expect.objectContaining({ month: MONTH, label: monthLabel(MONTH), emailed: false, domains: ['quiet-shop.example.test'], pdfPath: `/api/me/reports/monthly/${MONTH}.pdf` }),
    ]);
    expect((await download(quiet, `${MONTH}.pdf`)).status).toBe(200);
  });

  it('lists the month for its owner and serves the PDF that was emailed; another user gets 404', async () => {
    // Act
    const list = await api(t, 'GET', '/api/me/reports/monthly', plus.token);
    const own = await download(plus, `${MONTH}.pdf`);
    const lites = await download(lite, `${MONTH}.pdf`);

    // Assess
    expect(list.status).toBe(200);
    expect(list.body.reports).toEqual([
      { month: MONTH, label: monthLabel(MONTH), generatedAt: RUN_AT.toISOString(), emailed: true, domains: [PLUS_DOMAIN], sizeBytes: own.bytes.byteLength, pdfPath: `/api/me/reports/monthly/${MONTH}.pdf` },
    ]);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/pdf');
    expect(own.headers.get('content-disposition')).toBe(`attachment; filename="rampart-monthly-report-${MONTH}.pdf"`);
    const emailed = Buffer.from((await mailTo(plus.email))[0]!.attachments[0]!.content, 'base64');
    expect(Buffer.from(own.bytes).equals(emailed)).toBe(true);
    // The same path gives Lite Lite's own report of the month: nobody reaches another's.
    expect(lites.status).toBe(200);
    expect(Buffer.from(lites.bytes).equals(emailed)).toBe(false);
    expect((await readPdf(lites.bytes)).text).not.toContain(PLUS_DOMAIN);
    const stranger = await signIn(t, 'stranger@monthly.example.test', 'stranger');
    const denied = await download(stranger, `${MONTH}.pdf`);
    expect(denied.status).toBe(404);
    expect(JSON.parse(Buffer.from(denied.bytes).toString('utf8'))).toEqual({ error: 'monthly_report_not_found', message: 'There is no monthly report for that month.' });
  });

  it('answers 404 for a month without a report or a path that is not {yyyy-mm}.pdf, and 401 without a token', async () => {
    for (const file of ['1999-01.pdf', `${MONTH}.svg`, `${MONTH}`, '2026-13.pdf']) expect((await download(plus, file)).status).toBe(404);
    expect((await fetch(`${t.stack.url}/api/me/reports/monthly/${MONTH}.pdf`)).status).toBe(401);
  });

  it('tries a report again at the next run when SES refuses its email, then sends it once', async () => {
    // Prepare: a new subscriber, and a run whose SES is a closed loopback port.
    const late = await signIn(t, 'late@monthly.example.test', 'late');
    expect((await api(t, 'GET', '/api/me', late.token)).status).toBe(200);
    await setSubscription(t, late.userId, 'monitor-lite', 'active');
    const at = new Date(RUN_AT.getTime() + 30 * 60_000);
    const noSes = buildDeps({ ...t.stack.config, SES_ENDPOINT: 'http://127.0.0.1:9' }, { clock: { now: () => at } });

    // Act
    const refused = await makeScheduler(noSes)();
    const listedMeanwhile = await api(t, 'GET', '/api/me/reports/monthly', late.token);
    const retried = await runScheduler(new Date(at.getTime() + 15 * 60_000));
    const again = await runScheduler(new Date(at.getTime() + 30 * 60_000));

    // Assess
    expect(refused.monthlyReportsSent).toBe(0);
    expect(listedMeanwhile.body.reports).toEqual([]);
    expect([retried.monthlyReportsSent, again.monthlyReportsSent]).toEqual([1, 0]);
    expect((await mailTo(late.email)).map((m) => m.subject)).toEqual([`Rampart monthly security report: ${monthLabel(MONTH)}`]);
    expect((await mailTo(late.email))[0]!.body.text).toContain('No verified domain was monitored');
  });

  it('stops the email after the monitoring emails’ unsubscribe link, and the next month is reported once again', async () => {
    // Prepare: the link from the email.
    const link = /(http\S+\/api\/alerts\/unsubscribe\?token=\S+)/.exec((await mailTo(plus.email))[0]!.body.text!)![1]!;
    expect((await fetch(link)).status).toBe(200);

    // Act: the first run after the following month.
    const nextMonthRun = new Date(Date.UTC(YEAR, MONTH_INDEX + 2, 1) + 5 * 60_000);
    await runScheduler(nextMonthRun);

    // Assess: a new report listed, not emailed.
    expect(await mailTo(plus.email)).toHaveLength(1);
    const list = await api(t, 'GET', '/api/me/reports/monthly', plus.token);
    expect(list.body.reports.map((r: { month: string; emailed: boolean }) => [r.month, r.emailed])).toEqual([
      [`${new Date(NEXT_MONTH_START).toISOString().slice(0, 7)}`, false],
      [MONTH, true],
    ]);
  });
});

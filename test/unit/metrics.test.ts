import { Metrics as Powertools } from '@aws-lambda-powertools/metrics';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PowertoolsMetrics } from '../../lambdas/adapters/powertools-metrics.adapter.js';
import { RecordingMetrics } from '../../lambdas/adapters/recording-metrics.adapter.js';
import { SesMailer } from '../../lambdas/adapters/ses-mailer.adapter.js';
import type { Deps } from '../../lambdas/composition/core.js';
import { BUSINESS_METRICS, METRICS_NAMESPACE } from '../../lambdas/domain/metrics.port.js';

interface EmfLine {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** What the adapter wrote to stdout, one parsed EMF object per line. */
let written: string[];
beforeEach(() => {
  written = [];
  vi.stubEnv('POWERTOOLS_DEV', '');
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
const emfLines = (): EmfLine[] =>
  written
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as EmfLine);

const adapter = () => new PowertoolsMetrics(new Powertools({ namespace: METRICS_NAMESPACE, serviceName: 'rampart-test' }));

describe('Powertools metrics adapter (EMF)', () => {
  it('writes the counts and the scan duration as one EMF line on flush, in the Rampart namespace with the service dimension', () => {
    // Prepare
    const metrics = adapter();

    // Act
    metrics.scanStarted();
    metrics.scanCompleted(1234);
    metrics.emailSent();
    metrics.emailSent();
    metrics.emailFailed();
    const beforeFlush = emfLines().length;
    metrics.flush();

    // Assess
    expect(beforeFlush).toBe(0);
    const lines = emfLines();
    expect(lines).toHaveLength(1);
    const [line] = lines;
    const directive = line!._aws.CloudWatchMetrics[0]!;
    expect(directive.Namespace).toBe('Rampart');
    expect(directive.Dimensions).toEqual([['service']]);
    expect(Object.fromEntries(directive.Metrics.map((m) => [m.Name, m.Unit]))).toEqual({
      ScansStarted: 'Count',
      ScansCompleted: 'Count',
      ScanDurationMs: 'Milliseconds',
      EmailsSent: 'Count',
      EmailsFailed: 'Count',
    });
    expect(line).toMatchObject({ service: 'rampart-test', ScansStarted: 1, ScansCompleted: 1, ScanDurationMs: 1234, EmailsSent: [1, 1], EmailsFailed: 1 });
  });

  it("writes each check's duration at once, with the check id as a dimension", () => {
    // Prepare
    const metrics = adapter();

    // Act
    metrics.checkTimed('tls', 812);
    metrics.checkTimed('headers', 95);

    // Assess
    const lines = emfLines();
    expect(lines.map((l) => [l.check, l.CheckDurationMs])).toEqual([
      ['tls', 812],
      ['headers', 95],
    ]);
    for (const line of lines) {
      expect(line._aws.CloudWatchMetrics[0]).toMatchObject({
        Namespace: 'Rampart',
        Dimensions: [['service', 'check']],
        Metrics: [{ Name: 'CheckDurationMs', Unit: 'Milliseconds' }],
      });
    }
  });

  it('names every metric the alarms and the dashboard read', () => {
    // Prepare
    const metrics = adapter();

    // Act
    metrics.scanFailed();
    metrics.notificationAbandoned();
    metrics.flush();

    // Assess
    const [line] = emfLines();
    expect(line).toMatchObject({ [BUSINESS_METRICS.scansFailed]: 1, [BUSINESS_METRICS.notificationsAbandoned]: 1 });
  });

  it('writes nothing, not even a warning, when an invocation recorded nothing, and nothing twice', () => {
    // Prepare
    const metrics = adapter();
    const warnings = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    metrics.scanStarted();
    metrics.flush();
    written = [];

    // Act
    metrics.flush();

    // Assess
    expect(written).toEqual([]);
    expect(warnings).not.toHaveBeenCalled();
  });
});

describe('SES mailer metrics', () => {
  const message = { to: 'ada@example.com', subject: 'Hi', text: 'Hello' };
  const ses = (send: () => Promise<unknown>) => ({ send }) as unknown as SESv2Client;

  it('counts a send SES accepted as EmailsSent', async () => {
    // Prepare
    const metrics = new RecordingMetrics();
    const mailer = new SesMailer(ses(async () => ({ MessageId: 'm-1' })), 'no-reply@example.com', 'rampart-mail', metrics);

    // Act
    const result = await mailer.send(message);

    // Assess
    expect(result).toEqual({ messageId: 'm-1' });
    expect(metrics.total('EmailsSent')).toBe(1);
    expect(metrics.total('EmailsFailed')).toBe(0);
  });

  it('counts a refused send as EmailsFailed and still throws it', async () => {
    // Prepare
    const metrics = new RecordingMetrics();
    const refused = Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' });
    const mailer = new SesMailer(ses(() => Promise.reject(refused)), 'no-reply@example.com', 'rampart-mail', metrics);

    // Act
    const sent = mailer.send(message);

    // Assess
    await expect(sent).rejects.toBe(refused);
    expect(metrics.total('EmailsFailed')).toBe(1);
    expect(metrics.total('EmailsSent')).toBe(0);
  });
});

describe('Lambda entries flush the metrics', () => {
  const worker = async (body: (deps: Deps) => Promise<string>) => {
    vi.stubEnv('TABLE_NAME', 'rampart-test');
    vi.stubEnv('MAIL_FROM', 'no-reply@example.com');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'rampart-test');
    const { workerFunction } = await import('../../lambdas/functions/worker-function.js');
    const none = () => ({});
    return workerFunction('sweeper', (deps) => () => body(deps), { table: none, mailer: none, sms: none });
  };

  it('at the end of each invocation: what the invocation recorded is on stdout when the handler returns', async () => {
    // Prepare
    const handler = await worker(async (deps) => {
      deps.metrics.scanFailed();
      deps.metrics.scanFailed();
      return 'swept';
    });

    // Act
    const result = await handler({});

    // Assess
    expect(result).toBe('swept');
    expect(emfLines().map((line) => [line.service, line.ScansFailed])).toEqual([['rampart-test', [1, 1]]]);
  });

  it('also when the invocation fails', async () => {
    // Prepare
    const handler = await worker(async (deps) => {
      deps.metrics.scanStarted();
      throw new Error('table unavailable');
    });

    // Act
    const invocation = handler({});

    // Assess
    await expect(invocation).rejects.toThrow('table unavailable');
    expect(emfLines().map((line) => line.ScansStarted)).toEqual([1]);
  });
});

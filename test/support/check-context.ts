import type { CheckContext, CheckDefinition, ScanSettings } from '../../lambdas/scanner/check.js';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { createDnsClient } from '../../lambdas/scanner/net/dns-client.js';
import type { ScanNet } from '../../lambdas/scanner/net/net.js';
import { runCheck } from '../../lambdas/scanner/scan.js';

const notInThisTest = (what: string) => () => Promise.reject(new Error(`${what} is not used in this test`));

/**
 * A check context for probe tests: DNS goes to the test's own server on loopback (never the
 * system resolver), other clients fail unless the test gives them.
 */
export function checkContext(options: {
  dnsPort: number;
  host: string;
  domain: string | undefined;
  addresses?: string[];
  settings?: Partial<ScanSettings>;
  net?: Partial<ScanNet>;
  results?: Record<string, CheckResult>;
  mode?: CheckContext['mode'];
}): Omit<CheckContext, 'signal'> {
  const settings: ScanSettings = {
    resolvers: [{ host: '127.0.0.1', port: options.dnsPort }],
    dnsTimeoutMs: 400,
    allowPrivateTargets: true,
    excludePorts: [2024],
    ...options.settings,
  };
  return {
    mode: options.mode ?? 'active',
    target: { url: `https://${options.host}/`, host: options.host },
    domain: options.domain,
    addresses: options.addresses ?? [],
    subject: { emails: [], verifiedDomains: [] },
    settings,
    net: {
      dns: createDnsClient({ resolvers: settings.resolvers, timeoutMs: settings.dnsTimeoutMs }),
      tcp: { probe: notInThisTest('TCP') },
      tls: { handshake: notInThisTest('TLS') },
      http: { request: notInThisTest('HTTP') },
      smtp: { starttls: notInThisTest('SMTP') },
      ...options.net,
    },
    resultOf: async (name) => options.results?.[name],
  };
}

/** Runs a check the way the engine does (under its budget, with an abort signal). */
export function runWith(check: CheckDefinition, context: Omit<CheckContext, 'signal'>): Promise<CheckResult> {
  return runCheck(check.name, check.budgetMs, (signal) => check.run({ ...context, signal }));
}

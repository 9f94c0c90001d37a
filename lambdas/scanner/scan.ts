import type { CheckResult, Finding, Grade, RiskLevel } from '../domain/audit.js';
import { DomainError } from '../domain/errors.js';
import { grade, riskLevel, riskScore } from '../domain/scoring.js';
import type { WebTarget } from '../domain/target.js';
import { analyzeDns, probeDns } from './checks/dns.check.js';
import { createResolver, type ResolverSettings, type ScanResolver } from './resolver.js';
import { refusedAddress } from './target-guard.js';

export interface ScanSettings extends ResolverSettings {
  /** Local development and tests only: lets the scanner reach private and loopback addresses. */
  allowPrivateTargets: boolean;
}

export interface ScanOptions {
  /** Whole-scan deadline; each check also has its own budget. */
  deadlineMs?: number;
  /** Called as each check finishes, so progress can be stored while the scan goes on. */
  onProgress?: (check: CheckResult) => Promise<void> | void;
  resolver?: ScanResolver;
}

export interface ScanReport {
  target: WebTarget;
  addresses: string[];
  checks: CheckResult[];
  findings: Finding[];
  score: number;
  grade: Grade;
  riskLevel: RiskLevel;
  durationMs: number;
}

/** The target may not be scanned (it resolves to a private address, say). The audit fails with this message. */
export class TargetRefusedError extends DomainError {
  constructor(message: string) {
    super('target_not_allowed', message);
  }
}

const DNS_BUDGET_MS = 10_000;

/**
 * Scans a website. Resolves the target once (the addresses are pinned for every later check),
 * refuses non-public targets unless allowed, then runs each check under its own budget.
 */
export async function scan(target: WebTarget, settings: ScanSettings, options: ScanOptions = {}): Promise<ScanReport> {
  const started = performance.now();
  const resolver = options.resolver ?? createResolver(settings);
  const checks: CheckResult[] = [];
  const record = async (check: CheckResult) => {
    checks.push(check);
    await options.onProgress?.(check);
  };

  const dns = await runCheck('dns', Math.min(DNS_BUDGET_MS, options.deadlineMs ?? DNS_BUDGET_MS), async () => {
    const probe = await probeDns(resolver, target.host);
    return analyzeDns(target.host, probe);
  });
  await record(dns);
  const addresses = dns.status === 'ok' ? [...((dns.data?.ipv4 as string[]) ?? []), ...((dns.data?.ipv6 as string[]) ?? [])] : [];

  const refused = refusedAddress(addresses, settings.allowPrivateTargets);
  if (refused) {
    throw new TargetRefusedError(
      `${target.host} resolves to ${refused}, a private or reserved address. Rampart only scans sites on the public internet.`,
    );
  }

  const findings = checks.flatMap((c) => c.findings);
  const score = riskScore(findings);
  return {
    target,
    addresses,
    checks,
    findings,
    score,
    grade: grade(score),
    riskLevel: riskLevel(score),
    durationMs: Math.round(performance.now() - started),
  };
}

/** Runs one check under its budget: a slow or failing check yields status timeout|error with a reason, never a failed scan. */
export async function runCheck(
  name: string,
  budgetMs: number,
  run: () => Promise<Pick<CheckResult, 'findings' | 'data'>>,
): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), budgetMs);
  });
  try {
    const outcome = await Promise.race([run(), timeout]);
    const durationMs = Math.round(performance.now() - started);
    if (outcome === 'timeout') {
      return { name, status: 'timeout', durationMs, reason: `No answer within ${budgetMs} ms`, findings: [] };
    }
    return { name, status: 'ok', durationMs, ...outcome };
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    const err = error as NodeJS.ErrnoException;
    return { name, status: 'error', durationMs, reason: [err.code, err.message].filter(Boolean).join(': '), findings: [] };
  } finally {
    clearTimeout(timer);
  }
}

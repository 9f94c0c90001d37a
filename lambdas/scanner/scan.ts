import { setMaxListeners } from 'node:events';
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import type { CheckResult, Finding, Grade, RiskLevel, ScanMode } from '../domain/audit.js';
import { type NotCheckedItem, notCheckedOf, PASSIVE_REASON } from '../domain/coverage.js';
import { type GradeCap, scoreScan } from '../domain/grade-caps.js';
import { DomainError } from '../domain/errors.js';
import { grade, riskLevel } from '../domain/scoring.js';
import type { WebTarget } from '../domain/target.js';
import type { CheckContext, CheckDefinition, CheckOutput, ScanSettings, ScanSubject } from './check.js';
import { defaultChecks } from './checks/index.js';
import { createNet } from './net/create-net.js';
import type { ScanNet } from './net/net.js';
import { passiveNet } from './net/passive-net.js';
import { createResolver, type ScanResolver } from './resolver.js';
import { type SiteBlock, SiteKeptOutError } from './site-access/block.js';
import { probeSiteAccess, type SiteAccess } from './site-access/site-access.probe.js';
import { isLoopbackName, refusedAddress } from './target-guard.js';

export type { ScanSettings } from './check.js';

export interface ScanOptions {
  /** Whole-scan deadline (default 40 s); each check also has its own budget. */
  deadlineMs?: number;
  /** Called as each check finishes, so progress can be stored while the scan goes on. */
  onProgress?: (check: CheckResult) => Promise<void> | void;
  resolver?: ScanResolver;
  net?: ScanNet;
  checks?: readonly CheckDefinition[];
  /** The emails (and verified domains) the breach check may look up. */
  subject?: Partial<ScanSubject>;
  /**
   * DECISIONS "Scan modes" (default `active`: the operator's CLI). The product passes what the
   * requester proved; `passive` runs only what a browser or mail server does.
   */
  mode?: ScanMode;
  /** Why the checks a passive scan leaves out were left out (default PASSIVE_REASON). */
  passiveReason?: string;
}

export interface ScanReport {
  target: WebTarget;
  domain: string | undefined;
  addresses: string[];
  checks: CheckResult[];
  findings: Finding[];
  mode: ScanMode;
  /** Anything not checked (passive, or a check that did not finish): the score is then capped (DECISIONS "Scan modes"). */
  partial: boolean;
  notChecked: NotCheckedItem[];
  score: number;
  /** The caps that lowered the score (DECISIONS "Grade caps"), lowest first; empty when none did. */
  caps: GradeCap[];
  grade: Grade;
  riskLevel: RiskLevel;
  durationMs: number;
  /** What the landing page was when the scan loaded it, and the wall in front of it if any (null: no check reads pages). */
  siteAccess: SiteAccess | null;
}

/** The target may not be scanned (it resolves to a private address, say). The audit fails with this message. */
export class TargetRefusedError extends DomainError {
  constructor(message: string) {
    super('target_not_allowed', message);
  }
}

/** The target has no address (or DNS could not say): nothing could be assessed, so no grade is given. */
export class TargetUnresolvableError extends DomainError {
  constructor(message: string) {
    super('target_unresolvable', message);
  }
}

export const DEFAULT_DEADLINE_MS = 40_000;
const RESOLVE_BUDGET_MS = 8_000;
/** A Retry-After is waited out (once, polite-http.ts) only when this much of the deadline is left afterwards for the checks. */
const PAGE_CHECKS_RESERVE_MS = 15_000;

/**
 * DECISIONS "Blocked is a result": a page-reading check the site kept out. A challenge, an edge
 * block or a login wall is `blocked`; a rate limit is `rate_limited`; a 5xx or maintenance page is
 * an `error` of the check. Never graded, never passed.
 */
export function keptOutResult(name: string, block: SiteBlock): CheckResult {
  const base = { name, durationMs: 0, reason: block.reason, findings: [], data: { blocked: block } };
  if (block.kind === 'unavailable') return { ...base, status: 'error' };
  return { ...base, status: 'skipped', cause: block.kind === 'rate_limited' ? 'rate_limited' : 'blocked' };
}

/** Resolves the target once; every later connection of the scan goes to these addresses (no DNS rebinding). */
async function resolveTarget(resolver: ScanResolver, host: string): Promise<string[]> {
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal)) return [literal];
  const [ipv4, ipv6] = await Promise.all([resolver.resolve4(host), resolver.resolve6(host)]);
  return [...[...ipv4].sort(), ...[...ipv6].sort()];
}

/**
 * Scans a website: resolves and guards the target, then runs every check concurrently, each
 * under its own budget and all under one deadline. A slow or failing check ends as timeout or
 * error with its reason; it never fails the scan.
 */
export async function scan(target: WebTarget, settings: ScanSettings, options: ScanOptions = {}): Promise<ScanReport> {
  const started = performance.now();
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const deadline = AbortSignal.timeout(deadlineMs);
  const resolver = options.resolver ?? createResolver(settings);
  // Whatever a resolver would answer for it (RFC 6761: always loopback), and before asking one.
  if (!settings.allowPrivateTargets && isLoopbackName(target.host)) {
    throw new TargetRefusedError(`${target.host} is a name for this machine. Rampart only scans sites on the public internet.`);
  }

  let addresses: string[];
  let resolveError: string | undefined;
  try {
    addresses = await withTimeout(resolveTarget(resolver, target.host), Math.min(RESOLVE_BUDGET_MS, deadlineMs));
  } catch (error) {
    addresses = [];
    resolveError = describeError(error);
  }
  // A grade for a site nothing could be checked on would be a false all-clear.
  if (addresses.length === 0) {
    throw new TargetUnresolvableError(
      resolveError
        ? `We could not look up ${target.host} (${resolveError}). Please try again in a few minutes.`
        : `${target.host} does not resolve to any address. Check the website address and try again.`,
    );
  }
  const refused = refusedAddress(addresses, settings.allowPrivateTargets);
  if (refused) {
    const what = refused === target.host.replace(/^\[|\]$/g, '') ? `${refused} is` : `${target.host} resolves to ${refused},`;
    throw new TargetRefusedError(`${what} a private or reserved address. Rampart only scans sites on the public internet.`);
  }

  const checks = options.checks ?? defaultChecks;
  const mode = options.mode ?? 'active';
  const passiveReason = options.passiveReason ?? PASSIVE_REASON;
  const net = options.net ?? createNet(settings, { host: target.host, addresses }, resolver, { retryAfterUntil: started + deadlineMs - PAGE_CHECKS_RESERVE_MS });
  const results = new Map<string, Promise<CheckResult>>();
  const context: Omit<CheckContext, 'signal'> = {
    target,
    domain: isIP(target.host.replace(/^\[|\]$/g, '')) ? undefined : (getDomain(target.host) ?? target.host),
    addresses,
    resolveError,
    settings,
    mode,
    net: mode === 'passive' ? passiveNet(net, target.url) : net,
    resultOf: (name) => results.get(name) ?? Promise.resolve(undefined),
    subject: { emails: options.subject?.emails ?? [], verifiedDomains: options.subject?.verifiedDomains ?? [] },
  };
  // Loaded once, before any check reads the site's pages; checks that do not read pages start at once.
  let siteAccess: Promise<SiteAccess> | null = null;
  const accessOfSite = () =>
    (siteAccess ??= probeSiteAccess(context.net.http, target.url, { signal: deadline }));
  for (const check of checks) {
    const result = (async (): Promise<CheckResult> => {
      // Let every check register before any runs, so resultOf finds checks declared later.
      await Promise.resolve();
      if (mode === 'passive' && check.passive === 'skipped') return { name: check.name, status: 'skipped', durationMs: 0, reason: passiveReason, findings: [] };
      let checkContext = context;
      if (check.readsPages) {
        const access = await accessOfSite();
        if (access.block) return keptOutResult(check.name, access.block);
        // A page that never loaded (a tarpit, a refused port, a site slower than the deadline) has nothing to read, and nothing found on it is fixed.
        if (!access.landing && check.readsPages !== 'partly') {
          return { name: check.name, status: 'error', durationMs: 0, reason: `The site's landing page did not load (${access.error ?? 'no answer'}), so its pages were not checked.`, findings: [] };
        }
        // A site without HTTPS answered over http: its pages are read there, as a browser typing the name would (the TLS check still judges https).
        if (access.askedUrl && access.askedUrl !== target.url) checkContext = { ...context, target: { ...target, url: access.askedUrl } };
      }
      return runCheck(check.name, check.budgetMs, (signal) => check.run({ ...checkContext, signal }), deadline);
    })().then(async (result) => {
      await options.onProgress?.(result);
      return result;
    });
    results.set(check.name, result);
  }
  const finished = await Promise.all(results.values());
  const findings = finished.flatMap((c) => c.findings);
  const notChecked = notCheckedOf(finished, mode, passiveReason);
  const partial = mode === 'passive' || notChecked.length > 0;
  // DECISIONS "Grade caps": the formula's score, then the caps (no working HTTPS, a known-exploited CVE, a critical finding, partial).
  const { score, caps } = scoreScan({ checks: finished, findings, partial });
  return {
    target,
    domain: context.domain,
    addresses,
    checks: finished,
    findings,
    mode,
    partial,
    notChecked,
    score,
    caps,
    grade: grade(score),
    riskLevel: riskLevel(score),
    durationMs: Math.round(performance.now() - started),
    siteAccess: siteAccess ? await siteAccess : null,
  };
}

/**
 * Runs one check under its budget (and the scan's deadline, when given): a slow or failing check
 * yields status timeout|error with a reason; its signal is aborted so its sockets close.
 */
export async function runCheck(
  name: string,
  budgetMs: number,
  run: (signal: AbortSignal) => Promise<CheckOutput>,
  deadline?: AbortSignal,
): Promise<CheckResult> {
  const started = performance.now();
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(new Error(`No answer within ${budgetMs} ms`)), budgetMs);
  const signal = deadline ? AbortSignal.any([budget.signal, deadline]) : budget.signal;
  // Every socket of a check listens on this one signal: hundreds in a port scan.
  setMaxListeners(0, signal);
  const aborted = new Promise<'timeout'>((resolve) => {
    if (signal.aborted) resolve('timeout');
    signal.addEventListener('abort', () => resolve('timeout'), { once: true });
  });
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const outcome = await Promise.race([run(signal), aborted]);
    if (outcome === 'timeout') {
      const reason = budget.signal.aborted ? `No answer within ${budgetMs} ms` : 'The scan deadline passed';
      return { name, status: 'timeout', durationMs: elapsed(), reason, findings: [] };
    }
    return { name, status: 'ok', durationMs: elapsed(), ...outcome };
  } catch (error) {
    if (error instanceof SiteKeptOutError) return { ...keptOutResult(name, error.block), durationMs: elapsed() };
    return { name, status: 'error', durationMs: elapsed(), reason: describeError(error), findings: [] };
  } finally {
    clearTimeout(timer);
    budget.abort();
  }
}

function describeError(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  return [err.code, err.message].filter(Boolean).join(': ') || String(error);
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`No answer within ${ms} ms`), { code: 'ETIMEOUT' })), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

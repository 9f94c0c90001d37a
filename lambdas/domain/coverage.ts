import type { Audit, CheckResult, ScanMode } from './audit.js';
import { landingOf } from './scan-site.js';

/**
 * DECISIONS "Scan modes": what a report did not check, and why. One pure function over the stored
 * checks, so the results page, the PDF, the JSON and the email say the same thing. A check that
 * was skipped, ended in error or ran out of time is "not checked", never "passed"; so is each part
 * a limited check left out of a passive scan.
 */

/** The report's name for each check, in report order. */
export const CHECK_TITLES: Readonly<Record<string, string>> = {
  dns: 'DNS',
  email: 'Email security',
  subdomains: 'Subdomains',
  tls: 'SSL/TLS',
  http: 'HTTP security headers',
  ports: 'Open ports and services',
  wordpress: 'WordPress',
  exposure: 'Exposed files',
  software: 'Software and known vulnerabilities',
  breaches: 'Password breaches',
  'subdomain-surface': 'Subdomains’ TLS and headers',
};

export const checkTitle = (name: string): string => CHECK_TITLES[name] ?? name;

/** Why a passive scan leaves a check (or part of one) out. */
export const PASSIVE_REASON = 'Needs proof that you control this site: a passive scan only does what any visitor’s browser or a mail server does.';

/** DECISIONS "Scan modes": a partial report never gets the top grade; its score stops here (grade B at best). */
export const PARTIAL_SCORE_CAP = 89;

/**
 * Why something was not checked: left out of a `passive` scan, the per-target full-scan `limit`, an
 * `error` or `timeout` of the check, the site `blocked` the scanner (a bot challenge or an edge
 * block, DECISIONS "Blocked is a result"), or it answered 429/503 (`rate_limited`).
 */
export const notCheckedCauses = ['passive', 'error', 'timeout', 'limit', 'blocked', 'rate_limited'] as const;
export type NotCheckedCause = (typeof notCheckedCauses)[number];

/**
 * A part a check left out, as a check's `data.notChecked` lists it: a plain string is a part a
 * passive scan left out; an object names another cause (an exposure path answered 429, say).
 */
export type NotCheckedPart = string | { part: string; cause: NotCheckedCause; reason: string };

export interface NotCheckedItem {
  /** The check's stable name (dns, ports …). */
  check: string;
  /** The check's title in the report. */
  title: string;
  /** The part left out, when the check itself ran (e.g. "Zone transfer (AXFR)"); absent when the whole check did not run. */
  part?: string;
  cause: NotCheckedCause;
  reason: string;
}

export interface CoverageView {
  /** The mode the scan ran in (an audit from before scan modes ran active). */
  mode: ScanMode;
  /** The mode the requester's proof allowed, when the scan ran less (the per-target active limit). */
  allowedMode: ScanMode;
  /** True when anything was not checked: a passive scan, or a check that did not finish. */
  partial: boolean;
  notChecked: NotCheckedItem[];
}

/** The mode a stored audit's last scan ran in. */
export function ranMode(audit: Pick<Audit, 'mode' | 'ranPassiveBecause'>): ScanMode {
  return audit.ranPassiveBecause ? 'passive' : (audit.mode ?? 'active');
}

/** What the given checks did not check; `mode` is the mode they ran in. */
export function notCheckedOf(checks: readonly CheckResult[], mode: ScanMode, passiveReason: string = PASSIVE_REASON): NotCheckedItem[] {
  const items: NotCheckedItem[] = [];
  for (const check of checks) {
    const title = checkTitle(check.name);
    if (check.status === 'skipped') {
      const cause: NotCheckedCause = check.cause ?? (mode === 'passive' ? 'passive' : 'error');
      items.push({ check: check.name, title, cause, reason: check.reason ?? passiveReason });
    } else if (check.status === 'error' || check.status === 'timeout') {
      items.push({ check: check.name, title, cause: check.status, reason: check.reason ?? (check.status === 'timeout' ? 'It did not finish in time.' : 'It ended in an error.') });
    } else if (check.status === 'ok' && Array.isArray(check.data?.notChecked)) {
      for (const part of check.data.notChecked as unknown[]) {
        if (typeof part === 'string') items.push({ check: check.name, title, part, cause: 'passive', reason: passiveReason });
        else if (isNotCheckedPart(part)) items.push({ check: check.name, title, part: part.part, cause: part.cause, reason: part.reason });
      }
    }
  }
  const landing = landingNotLoaded(checks);
  if (landing) items.push(landing);
  return items;
}

function isNotCheckedPart(value: unknown): value is Exclude<NotCheckedPart, string> {
  const part = value as Partial<Record<'part' | 'cause' | 'reason', unknown>> | null;
  return (
    typeof part === 'object' && part !== null && typeof part.part === 'string' && typeof part.reason === 'string' && (notCheckedCauses as readonly unknown[]).includes(part.cause)
  );
}

/** A finished scan's coverage (an audit still running reports what has ended so far). */
export function coverageOf(audit: Pick<Audit, 'mode' | 'ranPassiveBecause' | 'checks'>): CoverageView {
  const mode = ranMode(audit);
  const reason = audit.ranPassiveBecause ? `${PASSIVE_REASON} ${audit.ranPassiveBecause}` : PASSIVE_REASON;
  const notChecked = notCheckedOf(audit.checks, mode, reason).map((item) => (item.cause === 'passive' && audit.ranPassiveBecause ? { ...item, cause: 'limit' as const } : item));
  return { mode, allowedMode: audit.mode ?? 'active', partial: mode === 'passive' || notChecked.length > 0, notChecked };
}

/** The score a report may show: a partial one never reaches the top grade (DECISIONS "Scan modes"). */
export function reportedScore(score: number, partial: boolean): number {
  return partial ? Math.min(score, PARTIAL_SCORE_CAP) : score;
}

/**
 * DECISIONS "Rescan target": a scan whose landing page did not load is never a full scan. The http
 * check that finished `ok` on a page that did not load (a 404, a 5xx) is listed as not checked; an
 * http check that did not finish is listed already, by `notCheckedOf`.
 */
export function landingNotLoaded(checks: readonly CheckResult[]): NotCheckedItem | undefined {
  const http = checks.find((check) => check.name === 'http');
  if (http?.status !== 'ok') return undefined;
  const landing = landingOf(checks);
  if (landing.loaded) return undefined;
  return { check: 'http', title: checkTitle('http'), cause: 'error', reason: `The site's landing page did not load (${landing.reason ?? 'no answer'}).` };
}

/** Issue 29 item 8: the "not checked" list by reason — the reason said once, the checks and parts it covers under it. */
export interface NotCheckedGroup {
  reason: string;
  cause: NotCheckedCause;
  items: { check: string; title: string; part?: string }[];
}

/** Items sharing a reason (and cause) in one group, in the order the reasons first appear. */
export function notCheckedByReason(items: readonly NotCheckedItem[]): NotCheckedGroup[] {
  const groups = new Map<string, NotCheckedGroup>();
  for (const item of items) {
    const key = `${item.cause}\u0000${item.reason}`;
    const group = groups.get(key) ?? { reason: item.reason, cause: item.cause, items: [] };
    group.items.push({ check: item.check, title: item.title, ...(item.part !== undefined ? { part: item.part } : {}) });
    groups.set(key, group);
  }
  return [...groups.values()];
}

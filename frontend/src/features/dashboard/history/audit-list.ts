import { reportProductName } from '../../../lib/catalogue';
import { toCsv } from '../../../lib/csv';
import type { AuditHistoryEntry } from '../../../lib/contracts';

export const HISTORY_PAGE_SIZE = 10;

export type StatusFilter = 'all' | AuditHistoryEntry['status'];
/** The kind of report (a free report, a Basic or Pro Audit: the plan catalogue's products), under the spec's name 'tier'. */
export type TierFilter = 'all' | AuditHistoryEntry['product'];
export type RiskFilter = 'all' | NonNullable<AuditHistoryEntry['riskLevel']>;

export interface HistoryFilters {
  search: string;
  status: StatusFilter;
  tier: TierFilter;
  risk: RiskFilter;
}

export const NO_FILTERS: HistoryFilters = Object.freeze({ search: '', status: 'all', tier: 'all', risk: 'all' });

export type SortKey = 'date' | 'domain' | 'score';
export type SortDirection = 'asc' | 'desc';

export interface HistorySort {
  key: SortKey;
  direction: SortDirection;
}

/** SPEC "Audit History page": newest first until the user picks another order. */
export const DEFAULT_SORT: HistorySort = Object.freeze({ key: 'date', direction: 'desc' });

/** DECISIONS "Audit statuses": `in_progress` is shown as 'in progress'. */
export const statusText = (status: AuditHistoryEntry['status']): string => status.replaceAll('_', ' ');

/** A scan's duration for the table: '45 s', '2 min 5 s', '—' until it ends. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—';
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** Search is a case-insensitive substring of the domain; every other filter is an exact match or 'all'. */
export function filterAudits(audits: readonly AuditHistoryEntry[], filters: HistoryFilters): AuditHistoryEntry[] {
  const needle = filters.search.trim().toLowerCase();
  return audits.filter(
    (audit) =>
      (needle === '' || audit.domain.toLowerCase().includes(needle)) &&
      (filters.status === 'all' || audit.status === filters.status) &&
      (filters.tier === 'all' || audit.product === filters.tier) &&
      (filters.risk === 'all' || audit.riskLevel === filters.risk),
  );
}

const time = (iso: string): number => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

/**
 * Sorted copy. Audits without a score (queued, running, failed) go last in either direction, so a
 * "best first" or "worst first" list starts with real scores. Ties keep the order they came in.
 */
export function sortAudits(audits: readonly AuditHistoryEntry[], sort: HistorySort): AuditHistoryEntry[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...audits].sort((a, b) => {
    switch (sort.key) {
      case 'date':
        return sign * (time(a.scanDate) - time(b.scanDate));
      case 'domain':
        return sign * a.domain.localeCompare(b.domain, 'en');
      case 'score':
        if (a.riskScore === null || b.riskScore === null) return (a.riskScore === null ? 1 : 0) - (b.riskScore === null ? 1 : 0);
        return sign * (a.riskScore - b.riskScore);
    }
  });
}

export interface Page<T> {
  rows: T[];
  /** 1-based, clamped into 1…pageCount. */
  page: number;
  pageCount: number;
  /** 1-based position of the first and last row shown; 0 and 0 when there are none. */
  first: number;
  last: number;
  total: number;
}

export function paginate<T>(rows: readonly T[], page: number, pageSize = HISTORY_PAGE_SIZE): Page<T> {
  const pageCount = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pageCount);
  const start = (current - 1) * pageSize;
  const shown = rows.slice(start, start + pageSize);
  return {
    rows: shown,
    page: current,
    pageCount,
    first: shown.length ? start + 1 : 0,
    last: start + shown.length,
    total: rows.length,
  };
}

export const HISTORY_CSV_HEADER = ['Date', 'Domain', 'Tier', 'Status', 'Risk Score', 'Issues', 'Duration'] as const;

const isoDateTime = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString();
};

/** The export of the rows given (already filtered and sorted): Date as ISO 8601, Tier as the table names it, Duration in seconds. */
export function historyCsv(audits: readonly AuditHistoryEntry[]): string {
  return toCsv(
    HISTORY_CSV_HEADER,
    audits.map((audit) => [
      isoDateTime(audit.scanDate),
      audit.domain,
      // The catalogue's name, as the table's Tier column shows it (issue 29 item 2), not the stored tier.
      reportProductName(audit.product),
      statusText(audit.status),
      audit.riskScore,
      audit.findings.totalIssues,
      audit.scanDuration,
    ]),
  );
}

/** `audit-history-YYYY-MM-DD.csv`, dated in the user's own time zone. */
export function historyCsvFileName(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `audit-history-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}

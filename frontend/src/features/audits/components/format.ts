import type { AuditStatus, CheckStatus, Grade, Severity } from '../../../lib/contracts';

/**
 * SPEC §4 "Scan status display": in_progress is shown with the underscore replaced by a space. A
 * skipped check reads "not checked" (DECISIONS "Scan modes"), never as if it had passed.
 */
export const statusLabel = (status: AuditStatus | CheckStatus): string =>
  status === 'ok' ? 'OK' : status === 'skipped' ? 'not checked' : status.replaceAll('_', ' ');

export const severityOrder: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

export const severityClass: Record<Severity, string> = {
  critical: 'bg-red-700 text-white',
  high: 'bg-orange-700 text-white',
  medium: 'bg-amber-300 text-amber-950',
  low: 'bg-sky-100 text-sky-900',
  info: 'bg-slate-200 text-slate-800',
};

/**
 * SPEC §9 "Scoring": grade colours A green, B blue, C yellow, D orange, F red. Each tone is the
 * darkest step that keeps its hue and still reads at WCAG AA (4.5:1) on white and on slate-50:
 * yellow-600 (2.9:1) and orange-600 (3.6:1) did not.
 */
export const gradeClass: Record<Grade, string> = {
  A: 'text-green-700 dark:text-green-400',
  B: 'text-blue-700 dark:text-blue-400',
  C: 'text-yellow-700 dark:text-yellow-400',
  D: 'text-orange-700 dark:text-orange-400',
  F: 'text-red-700 dark:text-red-400',
};

/** SPEC §9 "Scoring": 80+ green, 60 to 79 yellow, below 60 red. */
export const scoreClass = (score: number): string =>
  score >= 80 ? 'text-green-700 dark:text-green-400' : score >= 60 ? 'text-yellow-700 dark:text-yellow-400' : 'text-red-700 dark:text-red-400';


export const auditStatusClass: Record<AuditStatus, string> = {
  queued: 'bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600',
  in_progress: 'bg-blue-50 text-blue-800 ring-blue-200 dark:bg-blue-950 dark:text-blue-200 dark:ring-blue-800',
  completed: 'bg-green-50 text-green-800 ring-green-200 dark:bg-green-950 dark:text-green-200 dark:ring-green-800',
  failed: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
};

export const checkStatusClass: Record<CheckStatus, string> = {
  pending: 'text-slate-600 dark:text-slate-400',
  running: 'text-blue-800 dark:text-blue-300',
  ok: 'text-green-800 dark:text-green-300',
  error: 'text-red-800 dark:text-red-300',
  timeout: 'text-orange-800 dark:text-orange-300',
  skipped: 'text-slate-500 dark:text-slate-400',
};

export const isCheckFinished = (status: CheckStatus): boolean => status !== 'pending' && status !== 'running';

const dateFormat = new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

export const formatDuration = (ms: number | undefined): string =>
  ms === undefined ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** A check's measured data as short text: lists joined, nested values as compact JSON. */
export function formatDataValue(value: unknown, maxLength = 300): string {
  const isPrimitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  const text =
    isPrimitive(value)
      ? String(value)
      : Array.isArray(value) && value.every(isPrimitive)
        ? value.length === 0
          ? 'none'
          : value.map(String).join(', ')
        : (JSON.stringify(value) ?? String(value));
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

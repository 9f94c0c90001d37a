/**
 * Readers for stored JSON of unknown shape (a check's `data`, a finding's extras): each answers the
 * value when it has the expected type, else undefined or an empty list. Pure, no imports: the
 * audit view, the remediation plan and the monitoring diff share them.
 */

export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record).filter((v): v is Record<string, unknown> => v !== undefined) : [];
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A non-empty string. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

import type { Item } from '../../support/table.js';

export { type Item, tableItems } from '../../support/table.js';

/**
 * Item kinds a refused request may still change, by partition-key prefix, and why. Everything else
 * in the table must be byte-for-byte the same after any amount of bad input.
 */
export const MAY_CHANGE_ON_REFUSAL: readonly { prefix: string; why: string }[] = [
  {
    prefix: 'RATE#',
    why: 'rate-limit windows: a well-formed request is counted before the use case refuses it (a wrong code, an unknown id), so that guessing costs attempts',
  },
];

const keyOf = (item: Item) => `${String(item.pk)} | ${String(item.sk)}`;

/** JSON with object keys sorted at every depth, so equal items give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Set) return `set${canonical([...value].sort())}`;
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Item)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value) ?? 'undefined';
}

/** The table as key → item text, leaving out the kinds that may change. */
export function comparable(items: readonly Item[], allowed = MAY_CHANGE_ON_REFUSAL): Map<string, string> {
  return new Map(
    items
      .filter((item) => !allowed.some(({ prefix }) => String(item.pk).startsWith(prefix)))
      .map((item) => [keyOf(item), canonical(item)] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export interface TableChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/** What differs between two snapshots (item keys), ignoring the kinds that may change. */
export function tableChanges(before: readonly Item[], after: readonly Item[]): TableChanges {
  const a = comparable(before);
  const b = comparable(after);
  return {
    added: [...b.keys()].filter((key) => !a.has(key)),
    removed: [...a.keys()].filter((key) => !b.has(key)),
    changed: [...a.keys()].filter((key) => b.has(key) && a.get(key) !== b.get(key)),
  };
}

export const NO_CHANGES: TableChanges = { added: [], removed: [], changed: [] };

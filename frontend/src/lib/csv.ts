import { saveFile } from './save-file';

/** A cell as the caller has it: text, a number, or nothing (an empty cell). */
export type CsvValue = string | number | null | undefined;

/** Characters a spreadsheet reads as the start of a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters that oblige RFC 4180 quoting. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell, RFC 4180-escaped. Text that a spreadsheet would run as a formula gets a leading
 * apostrophe first; numbers are left alone, so a negative number stays a number.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole CSV document: the header row, then each row, lines ended with CRLF (RFC 4180). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

export function downloadCsv(fileName: string, csv: string): void {
  saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName);
}

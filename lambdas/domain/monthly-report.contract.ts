import * as z from 'zod';

/**
 * The monthly report's API (DECISIONS "Plan features": "monthly reports" = a monthly PDF emailed to
 * subscribers), shared by the API and the dashboard: `GET /api/me/reports/monthly` and the PDF at
 * `GET /api/me/reports/monthly/{yyyy-mm}.pdf`. zod and types only.
 */

/** A calendar month, `yyyy-mm`. */
export const reportMonthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month is written yyyy-mm');
export type ReportMonth = z.output<typeof reportMonthSchema>;

/** The PDF route's one path segment: `{yyyy-mm}.pdf` (API Gateway path variables are whole segments). */
export const monthlyReportFileSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])\.pdf$/, 'Monthly reports are served as {yyyy-mm}.pdf')
  .transform((file) => file.slice(0, -'.pdf'.length));

/** One month's report as the dashboard lists it. */
export interface MonthlyReportView {
  /** `yyyy-mm`. */
  month: string;
  /** 'October 2026'. */
  label: string;
  generatedAt: string;
  /** Whether it went out by email (the `emailAlerts` preference was on). */
  emailed: boolean;
  /** The monitored domains it covers. */
  domains: string[];
  sizeBytes: number;
  /** The API path of the PDF (signed-in download). */
  pdfPath: string;
}

export interface MonthlyReportsPage {
  /** Newest month first. */
  reports: MonthlyReportView[];
}

/** '2026-10' → 'October 2026' (English month names, no time zone involved). */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-');
  const names = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  return `${names[Number(number) - 1] ?? month} ${year}`;
}

import { type Color, PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { CveDetail } from '../domain/audit.js';
import type { AuditResultView, IssueSeverity, VulnerabilityView } from '../domain/audit-view.js';
import { notCheckedByReason, PARTIAL_SCORE_CAP } from '../domain/coverage.js';
import { buildFindingGroups, groupCountsText } from '../domain/finding-groups.js';
import type { FixAdviceView } from '../domain/fix-advice.js';
import { GRADE_CAP_LIMITS, gradeCapHeading } from '../domain/grade-caps.js';
import { cleanLogo } from '../domain/it-providers.js';
import { FACT_TONE_LABELS, protectionFacts } from '../domain/protection-facts.js';
import { guideSourceLabel, type PlatformGuideView } from '../domain/platform-guides.js';
import { isServerConfigExample, REMEDIATION_EFFORT_LABELS } from '../domain/remediation-plan.js';
import type { FindingPlatformGuides } from '../domain/report-platform-fixes.js';

/**
 * The PDF report: a pure function from the audit view to the bytes of a multi-page A4 document —
 * a cover (product, site, date, grade and score, the four counters), risk factors and
 * recommendations, findings by severity with evidence and advice, observations, open ports,
 * TLS, email security, HTTP headers, technologies and CVEs, subdomains and the breaches card; for a
 * Pro Audit, the remediation plan after the findings. The cover names the providers the site and its
 * mail run on; a paid audit's findings and plan items carry the steps for those platforms, a free
 * report's findings one line saying the paid audit has them (issue 21).
 *
 * pdf-lib with its standard fonts (Helvetica, Courier: WinAnsi, no font files to ship): text the
 * fonts cannot draw is transliterated (→ becomes ->) or replaced with '?', never an error.
 */

export interface PdfReportOptions {
  productName: string;
  /** Where the live report is, printed on the cover. */
  reportUrl?: string;
  /**
   * Sections drawn after the remediation plan, each with the document's writer: the Pro Audit's
   * Essential Eight readiness (essential-eight-pdf.ts, which draws with this module's Writer: passed
   * in rather than imported, so the two modules make no ring).
   */
  sections?: readonly ((w: Writer) => void)[];
  /**
   * An IT provider's branding (issue 22 item 3): its colour on the cover and its PNG logo (already
   * checked by lambdas/domain/it-providers.ts); `productName` is then the provider's name.
   */
  branding?: ReportBranding;
}

const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = { left: 50, right: 50, top: 56, bottom: 60 } as const;
const CONTENT_WIDTH = A4.width - MARGIN.left - MARGIN.right;

const ink = rgb(0.12, 0.16, 0.22);
const muted = rgb(0.42, 0.45, 0.5);
const rule = rgb(0.85, 0.87, 0.9);
const brand = rgb(0.11, 0.3, 0.62);

/** SPEC §9 grade colours: A green, B blue, C yellow, D orange, F red. */
const GRADE_COLOURS: Record<string, Color> = {
  A: rgb(0.13, 0.59, 0.29),
  B: rgb(0.15, 0.39, 0.82),
  C: rgb(0.85, 0.65, 0.06),
  D: rgb(0.93, 0.45, 0.1),
  F: rgb(0.82, 0.16, 0.16),
};

const SEVERITY_COLOURS: Record<IssueSeverity | 'info', Color> = {
  critical: rgb(0.6, 0.05, 0.1),
  high: rgb(0.82, 0.16, 0.16),
  medium: rgb(0.93, 0.45, 0.1),
  low: rgb(0.85, 0.65, 0.06),
  info: rgb(0.42, 0.45, 0.5),
};

const SEVERITY_TITLES: Record<IssueSeverity, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };

/** Characters the standard fonts lack, spelled with ones they have. */
const TRANSLITERATIONS: Record<string, string> = {
  '→': '->',
  '←': '<-',
  '≥': '>=',
  '≤': '<=',
  '≠': '!=',
  '≈': '~',
  '✓': 'yes',
  '✗': 'no',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\t': ' ',
};

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

interface TextStyle {
  font?: keyof Fonts;
  size?: number;
  color?: Color;
  indent?: number;
  /** Space after the block. */
  after?: number;
  lineGap?: number;
}

/** Page flow over pdf-lib: a cursor that wraps text and starts a new page when one is full. */
class Writer {
  page!: PDFPage;
  y = 0;
  private readonly drawable: Map<PDFFont, Set<number>> = new Map();

  constructor(
    readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {}

  newPage(): void {
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN.top;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  space(points: number): void {
    this.y -= points;
  }

  clean(text: string, font: PDFFont): string {
    let set = this.drawable.get(font);
    if (!set) {
      set = new Set(font.getCharacterSet());
      this.drawable.set(font, set);
    }
    const spelled = text.replace(/[\u2190-\u2194\u2260\u2264\u2265\u2248\u2713\u2717\u00a0\u2009\u202f\t]/g, (c) => TRANSLITERATIONS[c] ?? '?');
    let out = '';
    for (const char of spelled) out += set.has(char.codePointAt(0)!) ? char : '?';
    return out;
  }

  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of this.clean(text, font).split(/\r?\n/)) {
      let line = '';
      for (const word of paragraph.split(/ +/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = '';
        // A word wider than the column (a URL, a fingerprint) is cut where it must be.
        let rest = word;
        while (font.widthOfTextAtSize(rest, size) > width) {
          let cut = rest.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
          lines.push(rest.slice(0, cut));
          rest = rest.slice(cut);
        }
        line = rest;
      }
      lines.push(line);
    }
    return lines;
  }

  text(text: string, style: TextStyle = {}): void {
    const font = this.fonts[style.font ?? 'regular'];
    const size = style.size ?? 10;
    const indent = style.indent ?? 0;
    const leading = size * 1.3 + (style.lineGap ?? 0);
    for (const line of this.wrap(text, font, size, CONTENT_WIDTH - indent)) {
      this.ensure(leading);
      this.y -= leading;
      if (line) this.page.drawText(line, { x: MARGIN.left + indent, y: this.y + size * 0.25, size, font, color: style.color ?? ink });
    }
    this.y -= style.after ?? 0;
  }

  heading(text: string, level: 1 | 2 | 3 = 1): void {
    const size = level === 1 ? 18 : level === 2 ? 13 : 11;
    this.ensure(size * 3.5);
    this.space(level === 1 ? 6 : 8);
    this.text(text, { font: 'bold', size, color: level === 1 ? brand : ink, after: level === 1 ? 2 : 2 });
    if (level === 1) {
      this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: A4.width - MARGIN.right, y: this.y }, thickness: 1, color: rule });
      this.space(8);
    }
  }

  /** Label / value rows: labels in bold on the left, values wrapped in the right column. */
  keyValues(rows: [string, string][], labelWidth = 150): void {
    const size = 10;
    const leading = size * 1.35;
    for (const [label, value] of rows) {
      const lines = this.wrap(value, this.fonts.regular, size, CONTENT_WIDTH - labelWidth);
      this.ensure(leading * Math.min(lines.length, 3));
      this.page.drawText(this.clean(label, this.fonts.bold), { x: MARGIN.left, y: this.y - leading + size * 0.25, size, font: this.fonts.bold, color: ink });
      for (const line of lines) {
        this.ensure(leading);
        this.y -= leading;
        this.page.drawText(line, { x: MARGIN.left + labelWidth, y: this.y + size * 0.25, size, font: this.fonts.regular, color: ink });
      }
    }
    this.space(6);
  }

  /** A table with wrapped cells; the header row is repeated on each new page. */
  table(columns: { title: string; width: number }[], rows: string[][]): void {
    const size = 9;
    const leading = size * 1.35;
    const total = columns.reduce((sum, c) => sum + c.width, 0);
    const widths = columns.map((c) => (c.width / total) * CONTENT_WIDTH);
    const drawRow = (cells: string[], font: PDFFont, colour: Color) => {
      const wrapped = cells.map((cell, i) => this.wrap(cell, font, size, widths[i]! - 6));
      const height = Math.max(...wrapped.map((w) => w.length)) * leading + 4;
      const top = this.y;
      let x = MARGIN.left;
      wrapped.forEach((lines, i) => {
        lines.forEach((line, n) => this.page.drawText(line, { x: x + 2, y: top - (n + 1) * leading + size * 0.25, size, font, color: colour }));
        x += widths[i]!;
      });
      this.y = top - height;
      this.page.drawLine({ start: { x: MARGIN.left, y: this.y + 1 }, end: { x: A4.width - MARGIN.right, y: this.y + 1 }, thickness: 0.5, color: rule });
      return height;
    };
    const header = () => drawRow(columns.map((c) => c.title), this.fonts.bold, muted);
    this.ensure(leading * 3);
    header();
    for (const row of rows) {
      const height = Math.max(...row.map((cell, i) => this.wrap(cell, this.fonts.regular, size, widths[i]! - 6).length)) * leading + 4;
      if (this.y - height < MARGIN.bottom) {
        this.newPage();
        header();
      }
      drawRow(row, this.fonts.regular, ink);
    }
    this.space(8);
  }
}

/** SSL Labs' two non-letter grades. */
const describeTlsGrade = (grade: string | null): string =>
  grade === 'T' ? 'T (the certificate is not trusted)' : grade === 'M' ? 'M (the certificate does not match the site name)' : (grade ?? 'not graded');

const formatDate = (iso: string | null): string => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : 'not finished');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function renderPdfReport(view: AuditResultView, options: PdfReportOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  const title = `${options.productName} security report: ${view.host}`;
  doc.setTitle(title);
  doc.setAuthor(options.productName);
  doc.setSubject(`Website security assessment of ${view.target_url}`);
  doc.setCreator(options.productName);
  doc.setProducer(options.productName);
  // The report's date, not the rendering's: the same audit gives the same document.
  const reportDate = new Date(view.completed_at ?? view.created_at);
  doc.setCreationDate(reportDate);
  doc.setModificationDate(reportDate);

  const w = new Writer(doc, fonts);
  const logo = options.branding?.logoPng ? await embedLogo(doc, options.branding.logoPng) : undefined;
  cover(w, view, options, logo);
  w.newPage();
  siteAccess(w, view);
  summary(w, view);
  notChecked(w, view);
  findings(w, view);
  remediationPlan(w, view);
  for (const section of options.sections ?? []) section(w);
  network(w, view);
  tls(w, view);
  email(w, view);
  web(w, view);
  protections(w, view);
  technologies(w, view);
  subdomainsAndBreaches(w, view);
  footers(w, options.productName, view);
  return doc.save({ useObjectStreams: false });
}

/**
 * The provider's logo as the PDF's image, or none: the stored bytes are decoded again and re-encoded
 * (cleanLogo) before pdf-lib sees them, because pdf-lib's embedPng spins forever on image data that
 * is not zlib (issue 28 finding 4) and a logo stored before logos were decoded may be one. A logo that
 * does not decode, or that pdf-lib still refuses, leaves the report without it: the report matters more.
 */
async function embedLogo(doc: PDFDocument, png: Uint8Array): Promise<PDFImage | undefined> {
  try {
    return await doc.embedPng(cleanLogo(png));
  } catch {
    return undefined;
  }
}

/** An IT provider's branding of a report (issue 22 item 3): its colour and its PNG logo, already checked (lambdas/domain/it-providers.ts). */
export interface ReportBranding {
  colour: { r: number; g: number; b: number };
  logoPng?: Uint8Array;
}

/** The cover's band: the product's colour, or a provider's with its logo on a white tile at the right (at most 110 × 110 points). */
function coverBand(page: PDFPage, branding: ReportBranding | undefined, logo: PDFImage | undefined): void {
  const band = branding ? rgb(branding.colour.r, branding.colour.g, branding.colour.b) : brand;
  page.drawRectangle({ x: 0, y: A4.height - 150, width: A4.width, height: 150, color: band });
  if (!logo) return;
  const scale = Math.min(110 / logo.width, 110 / logo.height);
  const width = logo.width * scale;
  const height = logo.height * scale;
  page.drawRectangle({ x: A4.width - MARGIN.right - 120, y: A4.height - 140, width: 120, height: 120, color: rgb(1, 1, 1) });
  page.drawImage(logo, { x: A4.width - MARGIN.right - 60 - width / 2, y: A4.height - 80 - height / 2, width, height });
}

function cover(w: Writer, view: AuditResultView, options: PdfReportOptions, logo?: PDFImage): void {
  w.newPage();
  const { page, fonts } = w;
  coverBand(page, options.branding, logo);
  page.drawText(w.clean(options.productName, fonts.bold), { x: MARGIN.left, y: A4.height - 60, size: 16, font: fonts.bold, color: rgb(1, 1, 1) });
  page.drawText('Website Security Report', { x: MARGIN.left, y: A4.height - 100, size: 28, font: fonts.bold, color: rgb(1, 1, 1) });
  page.drawText(w.clean(view.host, fonts.regular), { x: MARGIN.left, y: A4.height - 128, size: 14, font: fonts.regular, color: rgb(1, 1, 1) });
  w.y = A4.height - 185;

  if (view.sample) {
    w.text('SAMPLE REPORT: an example of what a report looks like, not a scan of a real site.', { font: 'bold', size: 11, color: SEVERITY_COLOURS.high, after: 8 });
  }
  // DECISIONS "Blocked is a result": said before anything else; the steps follow on the next page.
  if (view.site_access) w.text(`${view.site_access.headline} See "Let the scanner in" on the next page.`, { font: 'bold', size: 11, color: SEVERITY_COLOURS.high, after: 8 });
  w.keyValues([
    ['Website', view.target_url],
    ...(view.business_name ? ([['Prepared for', view.business_name]] as [string, string][]) : []),
    ...(options.branding ? ([['Prepared by', options.productName]] as [string, string][]) : []),
    ['Scanned', formatDate(view.completed_at ?? view.created_at)],
    ['Scan', scanModeText(view)],
    ...(view.providers?.summary ? ([['Runs on', view.providers.summary]] as [string, string][]) : []),
    ...(options.reportUrl ? ([['Live report', options.reportUrl]] as [string, string][]) : []),
  ]);

  // Grade badge and score.
  const gradeLetter = view.grade ?? '-';
  const colour = GRADE_COLOURS[gradeLetter] ?? muted;
  const centreY = w.y - 70;
  w.page.drawCircle({ x: MARGIN.left + 60, y: centreY, size: 55, color: colour });
  const gradeWidth = fonts.bold.widthOfTextAtSize(gradeLetter, 54);
  w.page.drawText(gradeLetter, { x: MARGIN.left + 60 - gradeWidth / 2, y: centreY - 19, size: 54, font: fonts.bold, color: rgb(1, 1, 1) });
  w.page.drawText(view.coverage.partial ? 'Grade (partial report)' : 'Grade', { x: MARGIN.left + 145, y: centreY + 28, size: 11, font: fonts.regular, color: muted });
  w.page.drawText(`Score ${view.risk_score ?? '-'} / 100`, { x: MARGIN.left + 145, y: centreY + 4, size: 22, font: fonts.bold, color: ink });
  w.page.drawText(`Risk level: ${(view.risk_level ?? 'unknown').toUpperCase()}`, { x: MARGIN.left + 145, y: centreY - 22, size: 13, font: fonts.bold, color: colour });
  w.y = centreY - 85;

  // The four counters (SPEC §2 results page).
  const counters: [string, string][] = [
    ['Total issues', String(view.counters.totalIssues)],
    ['Critical issues', String(view.counters.criticalIssues)],
    ['Open ports', view.counters.openPorts === null ? '-' : String(view.counters.openPorts)],
    ['Subdomains', view.counters.subdomains === null ? '-' : String(view.counters.subdomains)],
  ];
  const boxWidth = (CONTENT_WIDTH - 3 * 10) / 4;
  counters.forEach(([label, value], i) => {
    const x = MARGIN.left + i * (boxWidth + 10);
    w.page.drawRectangle({ x, y: w.y - 70, width: boxWidth, height: 70, borderColor: rule, borderWidth: 1, color: rgb(0.97, 0.98, 0.99) });
    w.page.drawText(value, { x: x + 12, y: w.y - 38, size: 24, font: fonts.bold, color: i === 1 && value !== '0' ? SEVERITY_COLOURS.critical : ink });
    w.page.drawText(label, { x: x + 12, y: w.y - 58, size: 10, font: fonts.regular, color: muted });
  });
  w.y -= 95;

  const c = view.finding_counts;
  w.keyValues([
    ['Issues by severity', `${c.critical} critical, ${c.high} high, ${c.medium} medium, ${c.low} low`],
    // Issue 29 item 7: the same issues by what to do; the counts add up to the line above.
    ...ownerGroups(view).groups.map((g): [string, string] => [g.title, g.total === 0 ? '0' : `${g.total} (${groupCountsText(g.counts)}${g.exploited > 0 ? `; ${g.exploited} known exploited` : ''})`]),
    ['Observations', `${c.info} (informational: they do not count in the score)`],
    ['TLS grade', describeTlsGrade(view.grades.tls)],
  ]);
  // DECISIONS "Grade caps": each cap that held the grade down, with why.
  for (const cap of view.grade_caps ?? []) {
    w.text(`${gradeCapHeading(cap)}: ${cap.reason}`, { font: 'bold', size: 10, color: GRADE_COLOURS[gradeLetter] ?? ink, after: 3 });
  }
  w.space(6);
  w.text(
    'The score starts at 100 and loses 20 points per critical issue and 5 per other issue. ' +
      'Grades: 90+ A, 80+ B, 70+ C, 60+ D, below 60 F. Then caps, as SSL Labs caps its grades, so a report cannot flatter a site: ' +
      `no working HTTPS at most ${GRADE_CAP_LIMITS['no-https']} (D), a known-exploited vulnerability at most ${GRADE_CAP_LIMITS.kev} (F), any other critical issue at most ${GRADE_CAP_LIMITS.critical} (C), ` +
      `and a partial report (a passive scan, or checks that did not finish) at most ${PARTIAL_SCORE_CAP}: less checked never looks better. The scan is non-intrusive: it reads what the site and its ` +
      'servers show to anyone on the internet, without logging in, guessing passwords or changing anything.',
    { size: 9, color: muted },
  );
}

/** "Not checked — the site blocked the scanner" for a section whose check the site kept out, else null: never "no issues found". */
function keptOut(view: AuditResultView, check: string): string | null {
  const item = view.coverage.notChecked.find((i) => i.check === check && i.part === undefined && (i.cause === 'blocked' || i.cause === 'rate_limited'));
  if (!item) return null;
  return `Not checked — ${item.cause === 'blocked' ? 'the site blocked the scanner' : 'the site limited our requests'}. ${item.reason}`;
}

/** DECISIONS "Blocked is a result": what kept the scanner from the site, the checks not run, and how to let it in. */
function siteAccess(w: Writer, view: AuditResultView): void {
  const access = view.site_access;
  if (!access) return;
  w.heading('Let the scanner in');
  w.text(access.headline, { font: 'bold', after: 2 });
  w.text(access.reason, { after: 4 });
  if (access.checks.length > 0) {
    w.text(`Not checked, because the site did not show the scanner its pages: ${access.checks.map((check) => check.title).join(', ')}. These are not graded: the grade covers only what the scanner saw.`, { after: 6 });
  }
  if (access.guide) {
    w.heading(access.guide.title, 2);
    access.guide.steps.forEach((step, i) => w.text(`${i + 1}. ${step}`, { indent: 10, after: 3 }));
  }
  w.space(8);
}

/** DECISIONS "Scan modes": which mode ran, in the cover's words. */
function scanModeText(view: AuditResultView): string {
  const { coverage } = view;
  if (coverage.mode === 'passive') {
    return coverage.allowedMode === 'active'
      ? 'Passive (partial report): the site had its hourly share of active scans, so this one ran passive'
      : 'Passive (partial report): only what a visitor’s browser or a mail server does; proving control of the site unlocks the full scan';
  }
  return coverage.partial ? 'Full (active) scan; some checks did not finish (see "Not checked")' : 'Full (active) scan';
}

/** Every check, or part of one, that did not run, with its reason: never shown as passed. */
function notChecked(w: Writer, view: AuditResultView): void {
  const items = view.coverage.notChecked;
  if (items.length === 0) return;
  w.heading('Not checked');
  w.text('These were not checked, so this report cannot say they are fine:', { after: 4 });
  // Issue 29 item 8: each reason once, the checks and parts it covers beside it.
  w.table(
    [
      { title: 'Why', width: 4 },
      { title: 'Not checked', width: 5 },
    ],
    (view.not_checked_groups ?? notCheckedByReason(items)).map((group) => [group.reason, group.items.map((item) => (item.part ? `${item.title}: ${item.part}` : item.title)).join('; ')]),
  );
}

/** The view's owner groups; a view from before them is grouped the same way here. */
function ownerGroups(view: AuditResultView) {
  return view.finding_groups ?? buildFindingGroups(view.vulnerability_summary.vulnerabilities, view.observations.length);
}

/** Issue 29 item 8: what the change does first; the exact change after it, labelled. */
function fixAdvice(w: Writer, fix: FixAdviceView | undefined, fallback: string, indent: number, label = 'What to do: '): void {
  const advice = fix ?? { plain: fallback, technical: null };
  w.text(`${label}${advice.plain}`, { size: 9.5, indent });
  if (advice.technical) w.text(`Technical details: ${plainText(advice.technical)}`, { size: 8.5, color: muted, indent });
}

function summary(w: Writer, view: AuditResultView): void {
  w.heading('Summary');
  const factors = view.vulnerability_summary.riskFactors;
  if (factors.length === 0) w.text('No vulnerabilities detected.', { after: 6 });
  else {
    w.text('Risk factors, worst area first:', { font: 'bold', after: 2 });
    for (const factor of factors) w.text(`- ${factor}`, { indent: 10 });
    w.space(6);
  }
  w.heading('Recommendations', 2);
  const immediate = view.vulnerability_summary.recommendations.filter((r) => r.priority === 'immediate');
  const longTerm = view.vulnerability_summary.recommendations.filter((r) => r.priority === 'long-term');
  if (immediate.length > 0) {
    w.text('Do now', { font: 'bold', size: 11, after: 2 });
    immediate.forEach((r, i) => {
      w.text(`${i + 1}. ${r.title}${r.severity ? ` (${r.severity})` : ''}`, { font: 'bold', indent: 10 });
      fixAdvice(w, r.fix, r.action, 24, '');
      w.space(4);
    });
  }
  w.text('Over the longer term', { font: 'bold', size: 11, after: 2 });
  longTerm.forEach((r, i) => {
    w.text(`${i + 1}. ${r.title}`, { font: 'bold', indent: 10 });
    w.text(r.action, { indent: 24, after: 4 });
  });
}

function finding(w: Writer, v: VulnerabilityView | (Omit<VulnerabilityView, 'severity'> & { severity: 'info' })): void {
  w.ensure(60);
  const colour = SEVERITY_COLOURS[v.severity];
  const tag = v.severity.toUpperCase();
  const tagWidth = w.fonts.bold.widthOfTextAtSize(tag, 8) + 8;
  w.y -= 14;
  w.page.drawRectangle({ x: MARGIN.left, y: w.y - 2, width: tagWidth, height: 12, color: colour });
  w.page.drawText(tag, { x: MARGIN.left + 4, y: w.y + 1, size: 8, font: w.fonts.bold, color: rgb(1, 1, 1) });
  w.page.drawText(w.clean(v.category, w.fonts.regular), { x: MARGIN.left + tagWidth + 6, y: w.y + 1, size: 8, font: w.fonts.regular, color: muted });
  w.space(2);
  w.text(v.title, { font: 'bold', size: 11 });
  if (v.evidence) w.text(`Evidence: ${v.evidence}`, { font: 'mono', size: 8, color: muted, indent: 8, lineGap: 0.5 });
  w.text(v.description, { size: 9.5, indent: 8 });
  fixAdvice(w, v.fix, v.recommendation, 8);
  const details = 'cveDetails' in v ? v.cveDetails : undefined;
  const rating = [v.cvssScore !== undefined ? `CVSS ${v.cvssScore}` : '', v.cves?.length && !details ? `CVEs: ${v.cves.join(', ')}` : ''].filter(Boolean).join('  |  ');
  if (rating) w.text(rating, { size: 8.5, color: muted, indent: 8 });
  if (details) cveTable(w, details);
  platformFix(w, v.platformGuides, 8);
  w.space(8);
}

const fixHeading = (guide: PlatformGuideView): string => (guide.platform === 'dns-host' ? 'Fix it at your DNS host' : `Fix it in ${guide.platformName}`);

/** Issue 21: a paid audit's steps for each detected platform; a free report's one-line note. */
function platformFix(w: Writer, guides: FindingPlatformGuides | undefined, indent: number): void {
  if (!guides) return;
  if (guides.access === 'teaser') {
    w.text(guides.teaser, { size: 9, color: muted, indent });
    return;
  }
  for (const guide of guides.guides) {
    w.space(3);
    w.text(fixHeading(guide), { font: 'bold', size: 10, indent });
    if (guide.statement) w.text(guide.statement, { font: 'bold', size: 9.5, indent: indent + 8 });
    if (guide.kind === 'not-supported' && guide.steps.length > 0) w.text('What you can do instead:', { size: 9.5, indent: indent + 8 });
    guide.steps.forEach((step, n) => w.text(`${n + 1}. ${step}`, { size: 9.5, indent: indent + 8 }));
    for (const record of guide.records ?? []) {
      w.text(`${record.type} record, name ${record.name}:`, { size: 8, color: muted, indent: indent + 22 });
      w.text(record.value, { font: 'mono', size: 8, indent: indent + 22, lineGap: 0.5 });
    }
    if (guide.note) w.text(`Note: ${guide.note}`, { size: 9, color: muted, indent: indent + 8 });
    if (guide.source) {
      w.text(guideSourceLabel(guide.source), { size: 8, color: muted, indent: indent + 8 });
      w.text(guide.source.url, { font: 'mono', size: 7.5, color: muted, indent: indent + 8, lineGap: 0.5 });
    }
  }
}

/** Rows of a finding's CVE table in print: every known exploited one, then the rest up to this many. */
const PRINTED_CVES = 15;

const percent = (p: number) => `${(p * 100).toFixed(p >= 0.1 ? 0 : 1)}%`;

/** DECISIONS "Per-CVE detail": id, CVSS, exploited (CISA KEV) with its date and ransomware use, EPSS, fixed version; exploited first. */
function cveTable(w: Writer, details: readonly CveDetail[]): void {
  const shown = details.slice(0, Math.max(PRINTED_CVES, details.filter((c) => c.exploited).length));
  w.space(2);
  w.table(
    [
      { title: 'CVE', width: 1.5 },
      { title: 'CVSS', width: 0.8 },
      { title: 'Exploited (CISA KEV)', width: 1.9 },
      { title: 'EPSS (percentile)', width: 1.3 },
      { title: 'Fixed in', width: 1 },
    ],
    shown.map((c) => [
      c.id,
      c.cvssScore !== undefined ? c.cvssScore.toFixed(1) : c.severity === 'unknown' ? 'not rated' : c.severity,
      c.exploited ? `EXPLOITED${c.kevDateAdded ? ` since ${c.kevDateAdded}` : ''}${c.ransomware ? ', ransomware' : ''}` : '-',
      c.epss !== undefined ? `${percent(c.epss)}${c.epssPercentile !== undefined ? ` (${Math.floor(c.epssPercentile * 1000) / 10})` : ''}` : '-',
      c.fixedIn ?? '-',
    ]),
  );
  if (details.length > shown.length) w.text(`and ${details.length - shown.length} more CVEs, listed in the online report`, { size: 8.5, color: muted, indent: 8 });
  // Wordfence's licence asks for a link to each record wherever it is shown.
  const linked = shown.filter((c) => c.references?.length);
  if (linked.length > 0) {
    w.text('Source records:', { size: 8.5, color: muted, indent: 8 });
    for (const c of linked) w.text(`${c.id}: ${c.references!.join(' ')}`, { font: 'mono', size: 7.5, color: muted, indent: 16, lineGap: 0.5 });
  }
}

function findings(w: Writer, view: AuditResultView): void {
  w.newPage();
  // Issue 29 item 7: by what to do (fix now, this month, good practice), as on the results page.
  w.heading(`Issues to fix (${view.vulnerability_summary.vulnerabilities.length})`);
  const vulns = new Map(view.vulnerability_summary.vulnerabilities.map((v) => [v.id, v]));
  if (vulns.size === 0) w.text('No vulnerabilities detected.', { after: 6 });
  for (const group of ownerGroups(view).groups) {
    if (group.total === 0) continue;
    w.heading(`${group.title} (${group.total})`, 2);
    w.text(`${group.description} ${groupCountsText(group.counts)}${group.exploited > 0 ? `; ${group.exploited} known to be exploited` : ''}.`, { size: 9, color: muted, after: 4 });
    for (const id of group.findingIds) {
      const v = vulns.get(id);
      if (v) finding(w, v);
    }
  }
  if (view.observations.length > 0) {
    w.heading(`Observations (${view.observations.length})`, 2);
    w.text('Informational: worth knowing, not counted in the score.', { size: 9, color: muted, after: 4 });
    for (const o of view.observations) finding(w, { ...o, severity: 'info' });
  }
}

/** Inline `code` marks read as noise in print: the mono examples carry the configuration. */
const plainText = (text: string) => text.replace(/`/g, '');

function remediationPlan(w: Writer, view: AuditResultView): void {
  const plan = view.remediation_plan;
  if (!plan) return;
  w.newPage();
  w.heading('Remediation plan');
  w.text(
    `Pro Audit: what to do about each issue, worst first. Configuration examples are for ${plan.webServer === 'iis' ? 'IIS' : plan.webServer === 'apache' ? 'Apache' : plan.webServer ?? 'nginx and Apache'}${plan.webServer ? ', the web server this scan saw' : ''}.`,
    { size: 9.5, color: muted, after: 4 },
  );
  if (plan.items.length === 0) w.text('No issues to fix.', { after: 6 });
  plan.items.forEach((item, index) => {
    w.ensure(90);
    w.space(6);
    w.text(`${index + 1}. ${item.title}`, { font: 'bold', size: 11 });
    w.text(`${SEVERITY_TITLES[item.severity]} | ${item.category} | Effort: ${REMEDIATION_EFFORT_LABELS[item.effort]}`, { size: 8.5, color: SEVERITY_COLOURS[item.severity], indent: 8 });
    w.text(`Why it matters: ${item.whyItMatters}`, { size: 9.5, indent: 8, after: 2 });
    platformFix(w, item.platformGuides, 8);
    // On a platform whose server its owner cannot configure, the nginx/Apache/IIS lines do not apply.
    const serverConfig = item.platformGuides?.serverConfig ?? true;
    if (item.platformGuides) w.text('General steps:', { font: 'bold', size: 9.5, indent: 8 });
    item.steps.forEach((step, n) => {
      w.text(`${n + 1}. ${plainText(step.text)}`, { size: 9.5, indent: 16 });
      for (const example of (step.examples ?? []).filter((e) => serverConfig || !isServerConfigExample(e))) {
        w.text(`${example.label}:`, { size: 8, color: muted, indent: 30 });
        w.text(example.code, { font: 'mono', size: 8, indent: 30, lineGap: 0.5 });
      }
    });
    w.text(`How to verify: ${plainText(item.verify.text)}`, { size: 9.5, indent: 8 });
    if (item.verify.command) w.text(item.verify.command, { font: 'mono', size: 8, indent: 30, lineGap: 0.5 });
    w.space(4);
  });
}

function network(w: Writer, view: AuditResultView): void {
  w.heading('Network: open ports');
  const n = view.network;
  if (n.status === 'skipped') {
    w.text('Not checked: the port scan runs only in a full scan (see "Not checked").', { after: 6 });
    return;
  }
  if (n.status !== 'completed') {
    w.text(`The port scan did not complete (${n.status}).`, { after: 6 });
    return;
  }
  const firewall: Record<string, string> = {
    filtering: 'a firewall filters unused ports (they do not answer)',
    partial: 'some unused ports are filtered, others refused',
    none: 'no firewall filtering detected (unused ports answer with a refusal)',
  };
  w.keyValues([
    ['Address scanned', n.address ?? '-'],
    ['Ports tried', n.portsScanned === null ? '-' : `${n.portsScanned} most common TCP ports`],
    ['Firewall', n.firewall ? (firewall[n.firewall] ?? n.firewall) : '-'],
  ]);
  if (view.port_scan_results.length === 0) {
    w.text('No open ports found.', { after: 6 });
    return;
  }
  w.table(
    [
      { title: 'Port', width: 1 },
      { title: 'Service', width: 1.6 },
      { title: 'Product and version', width: 3 },
      { title: 'Risk', width: 1 },
    ],
    view.port_scan_results.map((p) => [String(p.port_number), p.service_name, [p.product, p.version].filter(Boolean).join(' ') || '-', p.risk_level]),
  );
}

function tls(w: Writer, view: AuditResultView): void {
  w.heading('TLS (HTTPS encryption)');
  const t = view.tls;
  if (t.status !== 'completed') {
    w.text(`The TLS check did not complete (${t.status}).`, { after: 6 });
    return;
  }
  w.keyValues([
    ['TLS grade', t.grade ? describeTlsGrade(t.grade) : 'not graded (no port speaks TLS)'],
    ['HSTS', t.hsts ? (t.hsts.enabled ? `enabled (max-age ${t.hsts.maxAge ?? '-'} s)` : 'not enabled') : 'not checked'],
    ...(t.hstsPreload === undefined
      ? []
      : ([['HSTS preload list', t.hstsPreload ? `yes: browsers always use HTTPS (listed as ${t.hstsPreload.entry}${t.hstsPreload.includeSubDomains ? ', with its subdomains' : ''})` : 'no']] as [string, string][])),
    ['HTTP to HTTPS redirect', t.httpsRedirect === null ? 'not checked' : t.httpsRedirect ? 'yes' : 'no'],
  ]);
  for (const port of t.ports) {
    w.heading(`Port ${port.port}${port.grade ? `: grade ${port.grade}` : ''}`, 3);
    const cert = port.certificate;
    w.keyValues([
      ['Protocols offered', port.protocols.length ? port.protocols.join(', ') : 'none'],
      ...(cert
        ? ([
            ['Certificate subject', cert.subject ?? '-'],
            ['Issuer', cert.issuer ?? '-'],
            ['Valid until', cert.validTo ? `${formatDate(cert.validTo)}${cert.daysLeft !== null ? ` (${cert.expired ? `expired ${-cert.daysLeft} days ago` : `${cert.daysLeft} days left`})` : ''}` : '-'],
            ['Trusted', cert.trusted ? 'yes' : cert.selfSigned ? 'no (self-signed)' : 'no'],
            ['Matches the site name', cert.hostnameMatch ? 'yes' : 'no'],
            ['Key', cert.keyType ? `${cert.keyType.toUpperCase()}${cert.keySize ? ` ${cert.keySize} bits` : ''}` : '-'],
          ] as [string, string][])
        : []),
    ]);
  }
}

function email(w: Writer, view: AuditResultView): void {
  w.heading('Email security');
  const e = view.email_security;
  if (e.status !== 'completed') {
    w.text(`The email check did not complete (${e.status}).`, { after: 6 });
    return;
  }
  w.keyValues([
    ['Domain', e.domain ?? '-'],
    ['SPF', e.spf ? e.spf.record : 'no SPF record: anyone can send mail as this domain'],
    ['DMARC', e.dmarc ? `${e.dmarc.record}${e.dmarc.policy ? ` (policy: ${e.dmarc.policy})` : ''}` : 'no DMARC record'],
    ['DKIM', e.dkim.selectorsFound.length ? `keys found for ${e.dkim.selectorsFound.join(', ')}` : 'no key found for the common selectors'],
  ]);
  if (e.mx.length === 0) w.text('No MX records: the domain receives no mail.', { after: 6 });
  else
    w.table(
      [
        { title: 'Mail server (MX)', width: 3 },
        { title: 'Preference', width: 1 },
        { title: 'STARTTLS', width: 1 },
        { title: 'TLS version', width: 1.2 },
      ],
      e.mx.map((m) => [m.host, m.preference === null ? '-' : String(m.preference), m.starttls === null ? 'not checked' : m.starttls ? 'yes' : 'no', m.tlsVersion ?? '-']),
    );
}

function web(w: Writer, view: AuditResultView): void {
  w.heading('Web security headers');
  const kept = keptOut(view, 'http');
  if (kept) {
    w.text(kept, { after: 6 });
    return;
  }
  // One grade in the report (issue 29): the Observatory's own letter is not shown beside ours; its score stays, for
  // owners who compare with that tool.
  const o = view.grades.httpObservatory;
  if (o) w.keyValues([['For comparison', `MDN HTTP Observatory score ${o.score} (that tool's scoring of these headers)`]]);
  const headerIssues = view.vulnerability_summary.vulnerabilities.filter((v) => v.category === 'Web Security');
  if (headerIssues.length > 0) for (const v of headerIssues) w.text(`- ${v.title} (${v.severity})`, { indent: 8 });
  else w.text('No web security issues found.');
  w.space(6);
}

/** MTA-STS, TLS-RPT, BIMI, DANE, DNSSEC, CAA, OCSP stapling, SCTs, Permissions-Policy, security.txt, mixed content: the results page's sentences. */
function protections(w: Writer, view: AuditResultView): void {
  const groups = protectionFacts(view);
  // A report stored before these checks has none of them: no section rather than an empty one.
  if (groups.length === 0) return;
  w.heading('Email, DNS and website protections');
  for (const group of groups) {
    w.heading(group.title, 3);
    w.table(
      [
        { title: 'Protection', width: 1.5 },
        { title: 'Status', width: 0.7 },
        { title: 'What the scan found', width: 4 },
      ],
      group.facts.map((fact) => [fact.label, FACT_TONE_LABELS[fact.tone], fact.value]),
    );
  }
}

function technologies(w: Writer, view: AuditResultView): void {
  w.heading('Technologies and known vulnerabilities');
  const kept = keptOut(view, 'software');
  if (kept && view.technologies.length === 0) {
    w.text(kept, { after: 6 });
    return;
  }
  if (view.technologies.length === 0) {
    w.text('No technologies identified.', { after: 6 });
    return;
  }
  w.table(
    [
      { title: 'Technology', width: 2.2 },
      { title: 'Version', width: 1.2 },
      { title: 'Category', width: 1.4 },
      { title: 'Known CVEs', width: 1 },
      { title: 'Fixed in', width: 1 },
    ],
    view.technologies.map((t) => [t.name, t.version ?? 'unknown', t.category ?? '-', String(t.knownVulnerabilities), t.fixedVersion ?? '-']),
  );
  for (const t of view.technologies.filter((t) => t.cves.length > 0)) {
    w.heading(`${t.name} ${t.version ?? ''}`.trim(), 3);
    const more = t.knownVulnerabilities - t.cves.length;
    const list = t.cves.map((c) =>
      [
        c.id,
        c.cvssScore !== undefined ? `CVSS ${c.cvssScore}` : c.severity && c.severity !== 'unknown' ? c.severity : 'not rated',
        c.exploited ? `known exploited${c.kevDateAdded ? ` (CISA KEV since ${c.kevDateAdded}${c.ransomware ? ', ransomware' : ''})` : ''}` : '',
        c.fixedIn ? `fixed in ${c.fixedIn}` : '',
      ]
        .filter(Boolean)
        .join(', '),
    );
    for (const line of list) w.text(`- ${line}`, { size: 9, indent: 8 });
    if (more > 0) w.text(`and ${more} more`, { size: 9, indent: 8, color: muted });
    w.space(4);
  }
  w.text(
    'Versions are read from what the servers announce. A distribution (Debian, Ubuntu, Red Hat) may have back-ported fixes without changing the version number: confirm with the package manager before acting.',
    { size: 8.5, color: muted, after: 6 },
  );
}

function subdomainsAndBreaches(w: Writer, view: AuditResultView): void {
  w.heading('Subdomains');
  const d = view.dns_results;
  if (d.status !== 'completed') w.text(`The subdomain search did not complete (${d.status}).`, { after: 6 });
  else
    w.keyValues([
      ['Subdomains found', String(d.subdomainsFound ?? 0)],
      ['Active (answer on the web)', d.activeSubdomains === null ? 'not measured' : String(d.activeSubdomains)],
    ]);

  w.heading('Password breaches');
  const b = view.breaches;
  const text: Record<string, string> = {
    ok: `${plural(b.checked ?? 0, 'business address', 'business addresses')} checked against Have I Been Pwned: ${b.breached ? `${plural(b.breached, 'address')} found in known breaches` : 'none found in known breaches'}.`,
    'not-configured': 'The breach lookup is not configured for this service: no addresses were checked.',
    error: 'The breach lookup could not be completed this time.',
  };
  w.text(text[b.status] ?? `Not checked (${b.status}).`, { after: 6 });
}

function footers(w: Writer, productName: string, view: AuditResultView): void {
  const pages = w.doc.getPages();
  const font = w.fonts.regular;
  const left = w.clean(`${productName} security report: ${view.host}${view.sample ? ' (sample)' : ''}`, font);
  pages.forEach((page, i) => {
    const right = `Page ${i + 1} of ${pages.length}`;
    page.drawText(left, { x: MARGIN.left, y: 30, size: 8, font, color: muted });
    page.drawText(right, { x: A4.width - MARGIN.right - font.widthOfTextAtSize(right, 8), y: 30, size: 8, font, color: muted });
  });
}

/** The page flow and palette, shared with the monthly report (lambdas/reports/monthly-report-pdf.ts). */
export { A4, brand, CONTENT_WIDTH, coverBand, type Fonts, GRADE_COLOURS, ink, MARGIN, muted, rule, SEVERITY_COLOURS, SEVERITY_TITLES, Writer };

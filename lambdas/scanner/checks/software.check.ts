/**
 * The "software" check: what runs there, and which of it has known vulnerabilities. Probe: the page
 * (redirects followed), one random path for the server's default error page, and the heads of at
 * most a few same-host script files whose names give no version; plus what the http, ports, email
 * and wordpress checks already read (headers, banners, MX greetings, the WordPress version), waited
 * for only until shortly before the budget ends. Analysis (pure, ./software/): fingerprint rules →
 * technologies with evidence and confidence → one CVE finding per product and version from the
 * knowledge base, with the distribution's backport caveat where a banner names one; WordPress plugins
 * and themes (the page's asset URLs, and the WordPress check's readme.txt and style.css readings) →
 * one finding per plugin or theme from the Wordfence data (./software/wordpress-components.ts); every
 * product (and operating system a banner shows) whose release cycle is out of security support on the
 * scan's date → an end-of-life finding (./software/end-of-life.ts).
 */
import { assertSiteSeen } from '../site-access/block.js';
import { randomBytes } from 'node:crypto';
import type { CheckResult, Finding } from '../../domain/audit.js';
import { type CheckContext, type CheckDefinition, type CheckOutput, notCheckedInPassive } from '../check.js';
import type { HttpResponse } from '../net/http-client.js';
import { mxSightings, portSightings, wordpressSightings } from './software/banners.js';
import { endOfLifeFindings, type EndOfLifeStatus, endOfLifeSubjects } from './software/end-of-life.js';
import { errorPageSightings } from './software/error-page.js';
import { cookieSightings, type HeaderSource, headerSightings } from './software/headers.js';
import { mergeSightings } from './software/merge.js';
import { pageSightings, readMarkup, scriptSightings, scriptsToRead } from './software/page.js';
import type { Sighting, Technology } from './software/types.js';
import { type SoftwareVulnerabilities, vulnerabilityFindings } from './software/vulnerabilities.js';
import { annotateComponents, componentFindings, mergeComponents, pageComponents, type WordPressComponent, wordpressCheckComponents } from './software/wordpress-components.js';
import { loadWordPressVulns, NO_WORDPRESS_VULNS, type WordPressVulnLookup } from '../vulndb/wordpress.js';

export type { Confidence, Sighting, Technology, TechnologyCategory, TechnologySource } from './software/types.js';
export type { SoftwareVulnerabilities } from './software/vulnerabilities.js';

export interface SoftwareCheckOptions {
  /** Default 12 s. */
  budgetMs?: number;
  /** The page fetch (default 6 s). */
  pageTimeoutMs?: number;
  /** The error page and each script file (default 3 s). */
  extraTimeoutMs?: number;
  /** Script files read at most (default 5). */
  maxScripts?: number;
  /** Bytes read of each script file (default 32 KiB: libraries name themselves in the first lines). */
  maxScriptBytes?: number;
  /** The path asked for to see the default error page (default `/rampart-not-found-<16 hex>`). */
  notFoundPath?: () => string;
  /** WordPress plugin and theme vulnerabilities (default: the knowledge base's, loaded when the site shows a plugin or theme with a version). */
  wordpressVulns?: () => Promise<WordPressVulnLookup>;
  /** The clock end-of-life dates are judged against (tests pin it). */
  now?: () => Date;
}

/** What the analysis needs besides the probe: the knowledge base's parts that are loaded on demand. */
export interface SoftwareAnalysisOptions {
  /** WordPress plugin and theme vulnerabilities; without it plugins and themes are listed, not matched. */
  wordpressVulns?: WordPressVulnLookup;
  /** The scan's date (YYYY-MM-DD), which end of life is judged against; without it no end-of-life finding is made. */
  today?: string;
}

/** Time kept at the end of the budget for the analysis, so what was read is reported, not lost to a timeout. */
const FINISH_MARGIN_MS = 750;
const PAGE_MAX_BYTES = 512 * 1024;
const ERROR_PAGE_MAX_BYTES = 64 * 1024;
const MAX_REDIRECTS = 5;

/** One response as the analysis reads it: its headers, those of every redirect hop before it, and its body. */
export interface ProbedResponse {
  url: string;
  status: number;
  headers: Record<string, readonly string[]>;
  body: string;
  redirects: HeaderSource[];
}

/** What another check of the scan said, as far as this check uses it. */
export interface OtherCheck {
  /** `used`, `no result` (not part of this scan), `not finished in time`, or `failed: …`. */
  status: string;
  data?: Record<string, unknown>;
  findingIds?: string[];
}

/** Everything the probe brought back; the analysis reads only this. */
export interface SoftwareProbe {
  page: ProbedResponse | null;
  pageError?: string;
  errorPage: ProbedResponse | null;
  scripts: { url: string; status: number; body: string }[];
  others: { http: OtherCheck; ports: OtherCheck; email: OtherCheck; wordpress: OtherCheck };
}

/** The check's data. */
export interface SoftwareData {
  url: string | null;
  technologies: Technology[];
  /** Per product and version (WordPress plugins and themes as `wordpress-plugin:<slug>`), the matched vulnerabilities' summary. */
  vulnerabilities: SoftwareVulnerabilities[];
  /** WordPress plugins and themes seen (the WordPress check's reading, else the page's asset URLs), with the version and where it came from. */
  wordpressComponents: WordPressComponent[];
  /** Each product and operating system with a release cycle: its cycle, end of security support and whether it has passed (on `endOfLifeDate`). */
  endOfLife: EndOfLifeStatus[];
  /** The scan date end of life was judged against; null when it was not judged. */
  endOfLifeDate: string | null;
  /** What was read, for the report and for debugging a fingerprint. */
  probed: {
    page: { url: string; status: number } | { error: string };
    errorPage: { url: string; status: number } | null;
    scripts: { url: string; status: number }[];
    checks: Record<keyof SoftwareProbe['others'], string>;
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every response of the http check's two sessions (redirect hops included), as header sources. */
function httpCheckResponses(data: Record<string, unknown> | undefined): HeaderSource[] {
  const responses = isRecord(data?.responses) ? data.responses : {};
  const sources: HeaderSource[] = [];
  for (const session of [responses.https, responses.http]) {
    if (!isRecord(session) || typeof session.url !== 'string' || !isRecord(session.headers)) continue;
    const hops = Array.isArray(session.redirects) ? session.redirects : [];
    for (const hop of hops) if (isRecord(hop) && typeof hop.url === 'string' && isRecord(hop.headers)) sources.push({ url: hop.url, headers: hop.headers as HeaderSource['headers'] });
    sources.push({ url: session.url, headers: session.headers as HeaderSource['headers'] });
  }
  return sources;
}

const isHtml = (response: ProbedResponse) => {
  const type = response.headers['content-type']?.[0]?.toLowerCase() ?? '';
  return type === '' ? /^\s*</.test(response.body) : type.includes('html');
};

/**
 * The WordPress plugins and themes the scan saw: the WordPress check's (readme.txt, style.css: active
 * scans) merged with what the page itself loads (`?ver=` on its asset URLs: every scan).
 */
export function wordpressComponentsOf(probe: Pick<SoftwareProbe, 'page' | 'others'>): WordPressComponent[] {
  const { page } = probe;
  return mergeComponents(wordpressCheckComponents(probe.others.wordpress.data), page && isHtml(page) ? pageComponents(page.url, page.body) : []);
}

/** Analysis: fingerprints from everything probed, merged into technologies, then the CVE findings. */
export function analyzeSoftware(probe: SoftwareProbe, options: SoftwareAnalysisOptions = {}): CheckOutput {
  const sightings: Sighting[] = [];
  const fromHeaders = (source: HeaderSource) => [...headerSightings(source), ...cookieSightings(source)];
  const { page, errorPage } = probe;
  if (page) {
    for (const source of [...page.redirects, page]) sightings.push(...fromHeaders(source));
    if (isHtml(page)) sightings.push(...pageSightings(page.url, readMarkup(page.body, page.url)));
  }
  for (const source of httpCheckResponses(probe.others.http.data)) sightings.push(...fromHeaders(source));
  if (errorPage) {
    // The error page's own headers count only where they say something new (a CDN's page, a different Server).
    const known = new Set(sightings.map((s) => `${s.source}\u0000${s.value}`));
    for (const source of [...errorPage.redirects, errorPage]) sightings.push(...fromHeaders(source).filter((s) => !known.has(`${s.source}\u0000${s.value}`)));
    sightings.push(...errorPageSightings(errorPage));
  }
  for (const script of probe.scripts) if (script.status >= 200 && script.status < 300) sightings.push(...scriptSightings(script.url, script.body));
  sightings.push(...portSightings(probe.others.ports.data?.open));
  sightings.push(...mxSightings(probe.others.email.data?.mx));
  sightings.push(...wordpressSightings(probe.others.wordpress.data));

  if (!page && sightings.length === 0) {
    throw new Error(`The page did not answer (${probe.pageError ?? 'no answer'}) and no other check read any software`);
  }
  const reportedElsewhere = new Set((probe.others.wordpress.findingIds ?? []).filter((id) => id.startsWith('cve.')));
  const outcome = vulnerabilityFindings(mergeSightings(sightings), { reportedElsewhere });
  const components = wordpressComponentsOf(probe);
  const wordpress = componentFindings(components, options.wordpressVulns ?? NO_WORDPRESS_VULNS);
  const fresh = wordpress.findings.filter((finding) => !reportedElsewhere.has(finding.id));
  const endOfLife = options.today ? endOfLifeFindings(endOfLifeSubjects(outcome.technologies), options.today) : { findings: [], statuses: [] };
  const findings = [...outcome.findings, ...fresh, ...endOfLife.findings].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const data: SoftwareData = {
    url: page?.url ?? null,
    technologies: options.wordpressVulns ? annotateComponents(outcome.technologies, components, wordpress) : outcome.technologies,
    vulnerabilities: [...outcome.vulnerabilities, ...wordpress.vulnerabilities.filter((v) => fresh.some((f) => f.id === v.findingId))].sort(
      (a, b) => findings.findIndex((f) => f.id === a.findingId) - findings.findIndex((f) => f.id === b.findingId),
    ),
    wordpressComponents: components,
    endOfLife: endOfLife.statuses,
    endOfLifeDate: options.today ?? null,
    probed: {
      page: page ? { url: page.url, status: page.status } : { error: probe.pageError ?? 'no answer' },
      errorPage: errorPage ? { url: errorPage.url, status: errorPage.status } : null,
      scripts: probe.scripts.map(({ url, status }) => ({ url, status })),
      checks: {
        http: probe.others.http.status,
        ports: probe.others.ports.status,
        email: probe.others.email.status,
        wordpress: probe.others.wordpress.status,
      },
    },
  };
  return { findings, data: data as unknown as Record<string, unknown> };
}

const SEVERITY_ORDER: readonly Finding['severity'][] = ['critical', 'high', 'medium', 'low', 'info'];

function probed(response: HttpResponse): ProbedResponse {
  return {
    url: response.url,
    status: response.status,
    headers: response.headers,
    body: response.body,
    redirects: response.redirects.map((hop) => ({ url: hop.url, headers: hop.headers ?? {} })),
  };
}

function describeError(error: unknown): string {
  const err = error as { code?: unknown; message?: unknown };
  return [typeof err.code === 'string' ? err.code : undefined, typeof err.message === 'string' ? err.message : String(error)].filter(Boolean).join(': ');
}

/** Another check's result, waited for at most `waitMs` (it may still be running, or not be part of this scan). */
async function otherCheck(context: CheckContext, name: string, waitMs: number): Promise<OtherCheck> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, waitMs));
  });
  try {
    const result: CheckResult | undefined | 'late' = await Promise.race([context.resultOf(name), late]);
    if (result === 'late') return { status: 'not finished in time' };
    if (!result) return { status: 'no result' };
    if (result.status !== 'ok') return { status: `failed: ${result.status}${result.reason ? ` (${result.reason})` : ''}` };
    return { status: 'used', ...(result.data ? { data: result.data } : {}), findingIds: result.findings.map((f: Finding) => f.id) };
  } finally {
    clearTimeout(timer);
  }
}

/** Builds the software check; `softwareCheck` is the default one. */
export function createSoftwareCheck(options: SoftwareCheckOptions = {}): CheckDefinition {
  const budgetMs = options.budgetMs ?? 12_000;
  const pageTimeoutMs = options.pageTimeoutMs ?? 6_000;
  const extraTimeoutMs = options.extraTimeoutMs ?? 3_000;
  const maxScripts = options.maxScripts ?? 5;
  const maxScriptBytes = options.maxScriptBytes ?? 32 * 1024;
  const notFoundPath = options.notFoundPath ?? (() => `/rampart-not-found-${randomBytes(8).toString('hex')}`);
  const wordpressVulns = options.wordpressVulns ?? loadWordPressVulns;
  const now = options.now ?? (() => new Date());

  return {
    name: 'software',
    budgetMs,
    needsAddress: true,
    // Pages, and the other checks' banners: a site with no web server still has its services read.
    readsPages: 'partly',
    // Passive: the page, its headers and the scripts it loads; not the error page of a made-up path.
    passive: 'limited',
    run: async (context) => {
      const started = performance.now();
      const { target, net } = context;
      // Stop probing and waiting shortly before the budget, so what was read is still analysed and kept.
      const untilMs = budgetMs - FINISH_MARGIN_MS;
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(Math.max(0, untilMs))]);
      const remaining = () => untilMs - (performance.now() - started);

      const others = Promise.all(['http', 'ports', 'email', 'wordpress'].map((name) => otherCheck(context, name, remaining())));
      const errorPage = context.mode === 'passive' ? Promise.resolve(null) : net.http
        .request(new URL(notFoundPath(), target.url).href, { followRedirects: 3, maxBodyBytes: ERROR_PAGE_MAX_BYTES, timeoutMs: extraTimeoutMs, signal })
        .then(probed, () => null);
      let pageError: string | undefined;
      const page = await net.http
        .request(target.url, { followRedirects: MAX_REDIRECTS, maxBodyBytes: PAGE_MAX_BYTES, timeoutMs: pageTimeoutMs, signal })
        .then(probed, (error: unknown) => {
          pageError = describeError(error);
          return null;
        });

      // The page of a challenge or a 429 is not the site's: kept out, never read for software (DECISIONS "Blocked is a result").
      if (page) assertSiteSeen(page);
      const toRead = page && isHtml(page) ? scriptsToRead(page.url, readMarkup(page.body, page.url), maxScripts) : [];
      const scripts = await Promise.all(
        toRead.map((url) =>
          net.http
            .request(url, { followRedirects: 2, maxBodyBytes: maxScriptBytes, timeoutMs: extraTimeoutMs, signal, headers: { accept: '*/*' } })
            .then((response) => ({ url: response.url, status: response.status, body: response.body }), () => ({ url, status: 0, body: '' })),
        ),
      );
      const [http, ports, email, wordpress] = await others;
      const probe: SoftwareProbe = {
        page,
        ...(pageError ? { pageError } : {}),
        errorPage: await errorPage,
        scripts,
        others: { http: http!, ports: ports!, email: email!, wordpress: wordpress! },
      };
      // 2.5 MB of plugin and theme data, read only when there is a versioned plugin or theme to match.
      const needsWordPress = wordpressComponentsOf(probe).some((component) => component.version);
      const today = now().toISOString().slice(0, 10);
      const output = analyzeSoftware(probe, { today, ...(needsWordPress ? { wordpressVulns: await wordpressVulns() } : {}) });
      // A landing page that did not load was not read: its software is not checked, never absent.
      const unread = pageError ? [{ part: 'The site’s pages and the scripts they load', cause: 'error' as const, reason: `The landing page did not load (${pageError}).` }] : [];
      return {
        ...output,
        data: { ...output.data, ...notCheckedInPassive(context.mode, ['The server’s default error page (a request for a page that does not exist)', 'Service banners from the port scan'], unread) },
      };
    },
  };
}

/**
 * The software check (12 s budget): technologies with versions, evidence and confidence from HTTP
 * headers, cookies, markup, script files, the default error page and the other checks' banners;
 * one CVE finding per product and version, and per WordPress plugin or theme; one end-of-life finding
 * per product or operating system out of support. data: SoftwareData { url, technologies,
 * vulnerabilities, wordpressComponents, endOfLife, endOfLifeDate, probed }.
 */
export const softwareCheck: CheckDefinition = createSoftwareCheck();

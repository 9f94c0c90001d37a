/**
 * The TLS check: every version from TLS 1.0 to 1.3 on the HTTPS port and on every TLS port the
 * port scan found, the certificate, HSTS and the HTTP→HTTPS redirect, graded like SSL Labs.
 * Probe here (handshakes and two HTTP requests, all concurrent); analysis in ./tls/.
 */
import { isIP, isIPv4 } from 'node:net';
import { type CheckContext, type CheckDefinition, notCheckedInPassive } from '../check.js';
import { loadHstsPreload, type PreloadEntry } from '../hsts-preload.js';
import type { HttpResponse } from '../net/http-client.js';
import { isTlsFailure, TLS_VERSIONS, type TlsHandshake, type TlsHandshakeOptions, type TlsVersion } from '../net/tls-client.js';
import { tlsFindings } from './tls/findings.js';
import { worstGrade, type LetterGrade, type TlsGrade } from './tls/grade.js';
import { hstsIssues, parseHsts, type HstsPolicy } from './tls/hsts.js';
import { caaCoverage, type CaaCoverage } from './tls/caa.js';
import type { TlsIssue } from './tls/issues.js';
import { ocspStaplingOf, transparencyIssues, transparencyOf, type OcspStaplingReport, type TransparencyReport } from './tls/transparency.js';
import { analyzePort, needsRestrictedProbes, restrictedProbes, unreachable, type HandshakeResult, type PortProbe, type PortReport, type RestrictedProbe } from './tls/port.js';
import { redirectIssues, summarizeRedirect, type RedirectReport } from './tls/redirect.js';

export interface TlsCheckOptions {
  /** The clock certificates are judged against (tests pin it). */
  now?: () => Date;
  budgetMs?: number;
  /** Per handshake: a server that has not answered by then is not going to. */
  handshakeTimeoutMs?: number;
  httpTimeoutMs?: number;
  /** Handshakes in flight at once, across ports, so a host with many TLS ports is not flooded. */
  maxConcurrentHandshakes?: number;
  /** TLS ports from the port scan tested besides the HTTPS port. */
  maxExtraPorts?: number;
}

export interface TlsPortData extends PortReport {
  /** Why the port was tested: it is the site's HTTPS port, or the port scan saw TLS on it. */
  source: 'target' | 'port-scan';
}

/** What the check stores in `data`: per-port reports, the overall grade, HSTS and the redirect. */
export interface TlsCheckData extends Record<string, unknown> {
  address: string;
  servername: string | null;
  /** The worst port's grade (null when no port speaks TLS). */
  grade: TlsGrade | null;
  gradeIgnoringTrust: LetterGrade | null;
  ports: TlsPortData[];
  hsts: ({ url: string } & HstsPolicy) | { url: string; error: string };
  /** The browsers' HSTS preload list entry covering the host (browsers use HTTPS for it, header or not); null when it is not listed. */
  hstsPreload: PreloadEntry | null;
  redirect: RedirectReport | { from: string; error: string };
  /** Embedded SCTs of the site's leaf certificate (HTTPS port). */
  certificateTransparency: TransparencyReport;
  /** Whether the HTTPS port staples OCSP, and the leaf's responder. */
  ocspStapling: OcspStaplingReport;
  /** The dns check's CAA set against the leaf's issuer. */
  caa: CaaCoverage;
  /** Whether the port scan's TLS ports were included. */
  portScan: 'used' | 'no result' | 'not finished in time' | 'not run (passive scan)' | `failed: ${string}`;
  notTested: string;
  durationMs: number;
}

const HTTPS_PORT = 443;
/** Time kept at the end of the budget for analysis. */
const FINISH_MARGIN_MS = 750;

/** The port HTTPS is expected on: the URL's own port when it is an https URL with one. */
export function httpsPortOf(url: string): number {
  const parsed = new URL(url);
  return parsed.protocol === 'https:' && parsed.port ? Number(parsed.port) : HTTPS_PORT;
}

/** Where plain HTTP is tried: the URL itself when it is http with its own port, else port 80 of the host. */
function plainHttpUrl(url: string, host: string): string {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && parsed.port ? `http://${host}:${parsed.port}/` : `http://${host}/`;
}

interface PortScanEntry {
  port: number;
  tls?: boolean;
}

const isPortScanEntry = (value: unknown): value is PortScanEntry =>
  typeof value === 'object' && value !== null && Number.isInteger((value as PortScanEntry).port) && (value as PortScanEntry).port > 0 && (value as PortScanEntry).port < 65536;

/** The TLS ports the port scan found, waiting for it at most until `waitMs` (the scan may still be running). */
async function portScanTlsPorts(context: CheckContext, waitMs: number): Promise<{ ports: number[]; status: TlsCheckData['portScan'] }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, waitMs));
  });
  try {
    const result = await Promise.race([context.resultOf('ports'), late]);
    if (result === 'late') return { ports: [], status: 'not finished in time' };
    if (!result) return { ports: [], status: 'no result' };
    if (result.status !== 'ok') return { ports: [], status: `failed: ${result.status}${result.reason ? ` (${result.reason})` : ''}` };
    const open = Array.isArray(result.data?.open) ? (result.data.open as unknown[]) : [];
    const excluded = new Set(context.settings.excludePorts ?? []);
    const ports = open.filter(isPortScanEntry).filter((entry) => entry.tls === true && !excluded.has(entry.port)).map((entry) => entry.port);
    return { ports: [...new Set(ports)], status: 'used' };
  } finally {
    clearTimeout(timer);
  }
}

/** The dns check's CAA set, waiting for it at most `waitMs`. */
async function dnsCaa(context: CheckContext, waitMs: number): Promise<Pick<TlsAnalysisInput, 'caa' | 'caaSource'>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, waitMs));
  });
  try {
    const result = await Promise.race([context.resultOf('dns'), late]);
    if (result === 'late') return { caa: null, caaSource: 'dns check not finished in time' };
    if (!result) return { caa: null, caaSource: 'no dns result' };
    if (result.status !== 'ok') return { caa: null, caaSource: `dns check failed: ${result.status}` };
    const caa = result.data?.caa as { owner?: unknown; records?: unknown } | undefined;
    const records = Array.isArray(caa?.records) ? caa.records.filter((r): r is string => typeof r === 'string') : [];
    return { caa: { owner: typeof caa?.owner === 'string' ? caa.owner : undefined, records }, caaSource: 'dns check' };
  } finally {
    clearTimeout(timer);
  }
}

/** A counting semaphore: at most `max` tasks run at once, the rest wait their turn. */
function limiter(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

type Handshake = (port: number, options: Pick<TlsHandshakeOptions, 'minVersion' | 'maxVersion' | 'ciphers'>) => Promise<HandshakeResult>;

/** Every version at once, then only the restricted follow-ups the answers leave open. */
async function probePort(port: number, handshake: Handshake): Promise<PortProbe> {
  const started = performance.now();
  const versions = Object.fromEntries(
    await Promise.all(TLS_VERSIONS.map(async (version) => [version, await handshake(port, { minVersion: version, maxVersion: version })] as const)),
  ) as Record<TlsVersion, HandshakeResult>;
  const restricted = Object.fromEntries(
    await Promise.all(
      needsRestrictedProbes(versions).map(
        async (kind) => [kind, await handshake(port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: restrictedProbes[kind] })] as const,
      ),
    ),
  ) as Partial<Record<RestrictedProbe, HandshakeResult>>;
  return { port, versions, restricted, durationMs: Math.round(performance.now() - started) };
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: string };

/** An HTTP request whose failure is data, not a failed check. */
async function attempt<T>(work: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return { ok: false, error: [err.code, err.message].filter(Boolean).join(': ') || String(error) };
  }
}

/** Builds the TLS check; `tlsCheck` is the default one. */
export function createTlsCheck(options: TlsCheckOptions = {}): CheckDefinition {
  const budgetMs = options.budgetMs ?? 15_000;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 3_000;
  const httpTimeoutMs = options.httpTimeoutMs ?? 5_000;
  const maxExtraPorts = options.maxExtraPorts ?? 10;
  const now = options.now ?? (() => new Date());

  return {
    name: 'tls',
    budgetMs,
    needsAddress: true,
    // Passive: the handshakes a browser makes on the site's own HTTPS port; not the other TLS ports a port scan finds.
    passive: 'limited',
    run: async (context) => {
      const started = performance.now();
      const { target, net, signal } = context;
      const passive = context.mode === 'passive';
      const host = target.host;
      const bareHost = host.replace(/^\[|\]$/g, '');
      const servername = isIP(bareHost) === 0 ? host : undefined;
      // One address for every connection; IPv4 first, as most sites' HTTPS is reachable there.
      const address = context.addresses.find((a) => isIPv4(a)) ?? context.addresses[0];
      if (!address) throw new Error(`${host} has no address to connect to`);
      const primaryPort = httpsPortOf(target.url);
      const httpsUrl = primaryPort === HTTPS_PORT ? `https://${host}/` : `https://${host}:${primaryPort}/`;
      const httpUrl = plainHttpUrl(target.url, host);

      // Stop probing shortly before the budget so what was measured is still analysed and kept,
      // instead of the engine discarding the whole check as a timeout.
      const probing = AbortSignal.any([signal, AbortSignal.timeout(Math.max(0, budgetMs - FINISH_MARGIN_MS))]);
      const limit = limiter(options.maxConcurrentHandshakes ?? 16);
      const handshake: Handshake = (port, versionOptions) =>
        limit(() =>
          probing.aborted
            ? Promise.resolve({ failed: 'Aborted before connecting', code: 'ABORT_ERR', connected: false })
            : net.tls.handshake(address, port, { ...versionOptions, servername, timeoutMs: handshakeTimeoutMs, signal: probing }),
        );
      // Leave room after waiting for the port scan for two rounds of handshakes before the budget ends.
      const portScanWaitMs = budgetMs - 2 * handshakeTimeoutMs - 1_000;

      const [primary, https, plain, extra, preloaded, caa] = await Promise.all([
        probePort(primaryPort, handshake),
        attempt(() => net.http.request(httpsUrl, { method: 'GET', followRedirects: 0, maxBodyBytes: 1024, timeoutMs: httpTimeoutMs, signal: probing })),
        attempt(() => net.http.request(httpUrl, { method: 'GET', followRedirects: 5, maxBodyBytes: 1024, timeoutMs: httpTimeoutMs, signal: probing })),
        (passive ? Promise.resolve({ ports: [] as number[], status: 'not run (passive scan)' as const }) : portScanTlsPorts(context, portScanWaitMs - (performance.now() - started))).then(async ({ ports, status }) => ({
          status,
          probes: await Promise.all(ports.filter((port) => port !== primaryPort).slice(0, maxExtraPorts).map((port) => probePort(port, handshake))),
        })),
        loadHstsPreload(),
        dnsCaa(context, portScanWaitMs - (performance.now() - started)),
      ]);

      const analysis = analyzeTls({
        name: servername ?? bareHost,
        now: now(),
        primary,
        extra: extra.probes,
        https: { url: httpsUrl, response: https },
        plain: { url: httpUrl, response: plain },
        hstsPreload: preloaded(bareHost),
        ...caa,
      });
      const data: TlsCheckData = {
        address,
        servername: servername ?? null,
        ...analysis.data,
        portScan: extra.status,
        notTested: 'SSL 2.0 and 3.0 (Node\'s OpenSSL cannot speak them), every individual cipher suite (one handshake per version plus targeted follow-ups), revocation (only whether OCSP is stapled), SCTs sent in the TLS extension or in the OCSP response (only embedded ones are read), renegotiation and Heartbleed-class bugs',
        durationMs: Math.round(performance.now() - started),
        ...notCheckedInPassive(context.mode, ['TLS on the other ports a port scan finds (mail, admin panels, alternative HTTPS ports)']),
      };
      return { findings: analysis.findings, data };
    },
  };
}

export interface TlsAnalysisInput {
  /** Name compared with certificates: the host, or the IP literal. */
  name: string;
  now: Date;
  primary: PortProbe;
  extra: PortProbe[];
  https: { url: string; response: Attempt<HttpResponse> };
  plain: { url: string; response: Attempt<HttpResponse> };
  /** The HSTS preload list's entry for the host (the knowledge base's lookup); null or absent when not listed. */
  hstsPreload?: PreloadEntry | null;
  /** The dns check's CAA set (null when there is none to use) and where it came from. */
  caa?: { owner: string | undefined; records: readonly string[] } | null;
  caaSource?: CaaCoverage['source'];
}

/** Pure analysis of everything the probe retrieved: port reports, grades and findings. */
export function analyzeTls(input: TlsAnalysisInput) {
  const hsts: HstsPolicy | null = input.https.response.ok ? parseHsts(input.https.response.value.headers['strict-transport-security']) : null;
  const redirect = input.plain.response.ok ? summarizeRedirect(input.plain.url, input.plain.response.value) : null;
  const analysed = [input.primary, ...input.extra].map((probe, index) => {
    const { report, issues } = analyzePort(probe, { name: input.name, now: input.now, hsts });
    return { report: { ...report, source: index === 0 ? 'target' : 'port-scan' } as TlsPortData, issues };
  });
  const [primary] = analysed;
  const issues: TlsIssue[] = analysed.flatMap((a) => a.issues);

  if (!primary!.report.tls && primary!.report.complete) {
    if (redirect) {
      issues.unshift({
        id: 'tls.none',
        severity: 'high',
        port: input.primary.port,
        evidence: `no TLS (${primary!.report.error}) while ${input.plain.url} answers ${redirect.status}${redirect.endsOnHttps ? ` and redirects to ${redirect.finalUrl}` : ''}`,
      });
    } else if (unreachable(input.primary) && !analysed.some((a) => a.report.tls)) {
      // Nothing to judge: the site answers neither HTTPS nor HTTP. Say so rather than pass it.
      const httpError = input.plain.response.ok ? 'no response' : input.plain.response.error;
      throw new Error(`Neither HTTPS (port ${input.primary.port}: ${primary!.report.error}) nor HTTP (${httpError}) answered`);
    }
  } else {
    if (hsts) issues.push(...hstsIssues(hsts, input.https.url));
    if (redirect) issues.push(...redirectIssues(redirect));
  }

  // Certificate Transparency, OCSP stapling and CAA: the site's own certificate, on the HTTPS port.
  const handshakes = TLS_VERSIONS.map((v) => input.primary.versions[v]).filter((r): r is TlsHandshake => r !== undefined && !isTlsFailure(r));
  const best = [...handshakes].reverse()[0];
  const leaf = best?.certificates[0];
  const certificate = primary!.report.certificate;
  const certificateTransparency = transparencyOf(leaf);
  const ocspStapling = ocspStaplingOf(handshakes, leaf);
  const caa = caaCoverage({ host: input.name, source: input.caaSource ?? 'no dns result', caa: input.caa ?? null, leaf, sans: certificate?.sans ?? [], trusted: certificate?.trusted === true });
  if (primary!.report.tls && primary!.report.complete) {
    const port = input.primary.port;
    issues.push(...[...transparencyIssues(certificateTransparency, ocspStapling, certificate?.trusted === true), ...caa.issues].map((issue) => ({ ...issue, port })));
  }

  const graded = analysed.map((a) => a.report.grade).filter((g) => g !== null);
  const grade = worstGrade(graded.map((g) => g.grade));
  const gradeIgnoringTrust = worstGrade(graded.map((g) => g.gradeIgnoringTrust));
  return {
    findings: tlsFindings(issues),
    data: {
      grade,
      gradeIgnoringTrust,
      ports: analysed.map((a) => a.report),
      hsts: input.https.response.ok ? { url: input.https.url, ...hsts! } : { url: input.https.url, error: input.https.response.error },
      hstsPreload: input.hstsPreload ?? null,
      certificateTransparency,
      ocspStapling,
      caa: caa.report,
      redirect: redirect ?? { from: input.plain.url, error: input.plain.response.ok ? 'no response' : input.plain.response.error },
    },
  };
}

/** The default TLS check (15 s budget, 3 s per handshake). */
export const tlsCheck: CheckDefinition = createTlsCheck();

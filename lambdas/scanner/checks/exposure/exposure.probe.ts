/**
 * Probe of the exposure check: read-only GETs of well-known sensitive paths on the site's origin,
 * with two random paths that cannot exist asked first (the site's soft-404 answers), then, for
 * listings that show dumps or secrets, a small read of at most three of the listed files to
 * confirm what they are. About 35 requests, four at a time, bodies capped at 64 KiB.
 */
import { randomBytes } from 'node:crypto';
import type { HttpClient } from '../../net/http-client.js';
import { LISTING_PATHS, listedFilePriority, MAX_LISTED_FILES, ruleForListedFile, SECURITY_TXT_PATH, SENSITIVE_PATHS } from './catalog.js';
import { createFetcher, type FetchFailure, isSample, type Sample } from './fetcher.js';
import { directoryListings, sensitiveEntries } from './listing.js';
import { fetchLanding } from './site.js';
import { matchesBaseline } from './soft-404.js';

/** Requests per scan of one site, the landing page included: the catalogue is ~31, confirmations at most 3. */
export const MAX_REQUESTS = 40;
/** Requests open at once: a small site's server must not feel the scan. */
export const CONCURRENCY = 4;
/** Every signature reads the start of a file; nothing needs more than this. */
export const MAX_BODY_BYTES = 64 * 1024;
/** A dump or archive is identified by its first bytes: no need to read more of a customer's data. */
export const LISTED_FILE_BYTES = 4 * 1024;
const REQUEST_TIMEOUT_MS = 4_000;
const LANDING_BYTES = 256 * 1024;
/** Time kept at the end of the budget for the analysis and the report. */
const RESERVE_MS = 600;

/** Everything the exposure probe retrieved; the analysis reads only this. */
export interface ExposureProbe {
  /** The site's origin every path was read from. */
  origin: string;
  /** The landing page (the site root; a listing there counts). */
  landing: Sample;
  /** The answers to a random file path and a random folder path: what "not here" looks like on this site. */
  baseline: { file: Sample | null; directory: Sample | null };
  /** Every other response, in the order asked. */
  samples: Sample[];
  /** Requests that got no response. */
  failures: FetchFailure[];
  /** Requests sent, the landing included. */
  sent: number;
  /** True when requests were left unsent (budget or request cap). */
  incomplete: boolean;
}

/** The probe's inputs: the scan's guarded client, the target, and its signal and time. */
export interface ExposureProbeOptions {
  client: HttpClient;
  target: { url: string; host: string };
  domain: string | undefined;
  signal: AbortSignal;
  /** How long the probe may take in all, from now. */
  budgetMs: number;
  /** A passive scan (DECISIONS "Scan modes"): the landing page and security.txt only; no catalogue, no random paths. */
  passive?: boolean;
  /** Random token for the not-found paths (tests pin it). */
  random?: () => string;
}

/** Probe: the landing page, the baselines, the catalogue, folders, security.txt, then confirmations of listed files. */
export async function probeExposure(options: ExposureProbeOptions): Promise<ExposureProbe> {
  const started = performance.now();
  const random = options.random ?? (() => randomBytes(6).toString('hex'));
  const landing = await fetchLanding(options.client, options.target, options.domain, {
    signal: options.signal,
    timeoutMs: Math.floor(Math.min(7_000, options.budgetMs / 2)),
    maxBodyBytes: LANDING_BYTES,
  });
  const fetcher = createFetcher({
    client: options.client,
    origin: landing.origin,
    signal: options.signal,
    stopAt: started + options.budgetMs - RESERVE_MS,
    maxRequests: MAX_REQUESTS - landing.attempts,
    concurrency: CONCURRENCY,
    maxBodyBytes: MAX_BODY_BYTES,
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  const token = random();
  // Asked first so that they are answered before the queue fills up.
  const noBaseline = Promise.resolve(undefined);
  const baselineFile = options.passive ? noBaseline : fetcher.get(`/rampart-${token}.txt`);
  const baselineDirectory = options.passive ? noBaseline : fetcher.get(`/rampart-${token}/`);
  const paths = options.passive ? [SECURITY_TXT_PATH] : [...SENSITIVE_PATHS.map((rule) => rule.path), ...LISTING_PATHS, SECURITY_TXT_PATH];
  const answered = await Promise.all(paths.map((path) => fetcher.get(path)));
  const [file, directory] = await Promise.all([baselineFile, baselineDirectory]);
  const baseline = { file: file && isSample(file) ? file : null, directory: directory && isSample(directory) ? directory : null };

  const landingSample: Sample = {
    path: new URL(landing.response.url).pathname,
    url: landing.response.url,
    status: landing.response.status,
    headers: landing.response.headers,
    body: landing.response.body,
    bytes: Buffer.byteLength(landing.response.body, 'utf8'),
    truncated: landing.response.bodyTruncated === true,
    redirects: landing.response.redirects,
  };
  const folders = [landingSample, ...answered.filter(isSample).filter((sample) => LISTING_PATHS.includes(sample.path))];
  const listings = directoryListings(folders, (response) => response !== landingSample && matchesBaseline(response, baseline.directory));
  const listed = options.passive ? [] : listedFilesToConfirm(listings, paths);
  const confirmations = await Promise.all(listed.map((path) => fetcher.get(path, { maxBodyBytes: LISTED_FILE_BYTES })));

  const all = [...answered, ...confirmations];
  return {
    origin: landing.origin,
    landing: landingSample,
    baseline,
    samples: all.filter(isSample),
    failures: [file, directory, ...all].filter((result): result is FetchFailure => result !== undefined && !isSample(result)),
    sent: landing.attempts + fetcher.sent,
    incomplete: fetcher.incomplete,
  };
}

/** The listed files worth one small read: those whose content a signature can confirm, dumps and secrets first. */
export function listedFilesToConfirm(listings: readonly { path: string; listing: { entries: string[] } }[], alreadyAsked: readonly string[] = []): string[] {
  const candidates = listings.flatMap(({ path, listing }) =>
    sensitiveEntries(listing)
      .filter((name) => ruleForListedFile(name) !== undefined)
      .map((name) => ({ path: `${path}${encodeURIComponent(name)}`, priority: listedFilePriority(name) })),
  );
  return candidates
    .filter((candidate, index) => !alreadyAsked.includes(candidate.path) && candidates.findIndex((c) => c.path === candidate.path) === index)
    .sort((a, b) => a.priority - b.priority)
    .slice(0, MAX_LISTED_FILES)
    .map((candidate) => candidate.path);
}

/**
 * What the HTTP check's probe retrieved, as the pure analyses read it (the MDN Observatory's
 * "requests"): the page fetched over https and over http with their redirect chains, the CORS
 * preflight and robots.txt. Analyses are tested on fixtures of this shape, never on the network.
 */
import { headerValue } from '../../net/http-client.js';

export type HeaderMap = Readonly<Record<string, readonly string[]>>;

/** One response of a redirect chain, before the final one. */
export interface RetrievedHop {
  url: string;
  status: number;
  location?: string;
  headers?: HeaderMap;
}

export interface RetrievedResponse {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: HeaderMap;
  body: string;
  /** Every response before this one, the first request first. */
  redirects: readonly RetrievedHop[];
  /** False when an HTTPS hop's certificate was not trusted; undefined when no hop was HTTPS. */
  certificateTrusted?: boolean;
}

export interface Retrieved {
  /** The scanned host (the site), lower case. */
  host: string;
  /** GET https://host/…, redirects followed; null when nothing answered over HTTPS. */
  https: RetrievedResponse | null;
  /** GET http://host/…, redirects followed; null when nothing answered over plain HTTP. */
  http: RetrievedResponse | null;
  /** The CORS preflight (OPTIONS with an Origin) sent to the final URL, and the origin it claimed. */
  cors: { origin: string; headers: HeaderMap } | null;
  /** robots.txt from the analyzed session: only the cookies it sets count. */
  robots: RetrievedResponse | null;
}

/** The outcome of one Observatory test; its points come from the score table, never from the test. */
export interface TestOutcome<Name extends string = string, Result extends string = string> {
  name: Name;
  result: Result;
  pass: boolean;
}

/** The response the header tests read: the HTTPS one when the site answered over HTTPS, else the HTTP one. */
export function analyzed(retrieved: Retrieved): RetrievedResponse | null {
  return retrieved.https ?? retrieved.http;
}

/** The URL the analyzed session started from (its scheme decides what "secure" means). */
export function sessionUrl(retrieved: Retrieved): URL | null {
  const response = analyzed(retrieved);
  if (!response) return null;
  return new URL(response.redirects[0]?.url ?? response.url);
}

/** A header as Node (and so the Observatory) reads it: repeats joined with ", ", single-valued ones first only. */
export function header(headers: HeaderMap | undefined, name: string): string | undefined {
  return headers ? headerValue(headers, name) : undefined;
}

/** The response's media type as the Observatory compares it: before the first ";", untouched. */
export function mediaType(headers: HeaderMap): string | undefined {
  return header(headers, 'content-type')?.split(';')[0];
}

export const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Shortens a header value for a finding's evidence. */
export function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Every response of a session, redirect hops first, the final response last. */
export function chain(response: RetrievedResponse | null): { url: string; status: number; headers: HeaderMap }[] {
  if (!response) return [];
  return [...response.redirects.map((hop) => ({ url: hop.url, status: hop.status, headers: hop.headers ?? {} })), response];
}

export const CATEGORY = 'Web Security';

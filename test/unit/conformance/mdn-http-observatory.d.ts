/**
 * Types for the parts of `@mdn/mdn-http-observatory` (plain JavaScript with JSDoc, no declarations)
 * that the Observatory differential calls. Only what the test reads is typed.
 */
declare module '@mdn/mdn-http-observatory/src/types.js' {
  export interface MdnRedirect {
    url: URL;
    status: number;
  }
  /** axios' AxiosHeaders: the header names as own properties, and a case-insensitive get(). */
  export type MdnHeaders = Record<string, string | string[]> & { get(name: string): unknown };
  /** An axios response as the retriever keeps it, plus `verified` (the TLS chain was trusted). */
  export interface MdnResponse {
    headers: MdnHeaders;
    request: { headers: MdnHeaders };
    status: number;
    statusText: string;
    verified: boolean;
    data: string;
    config: { headers: MdnHeaders };
    httpEquiv?: Map<string, string[]>;
  }
  export class Requests {
    constructor(hostname: string);
    hostname: string;
    resources: { path: string | null };
    responses: {
      auto: MdnResponse | null;
      cors: MdnResponse | null;
      http: MdnResponse | null;
      https: MdnResponse | null;
      httpRedirects: MdnRedirect[];
      httpsRedirects: MdnRedirect[];
    };
    session: { url: URL; jar: { setCookieSync(cookie: string, url: string, options?: { ignoreError?: boolean }): unknown } } | null;
  }
}

declare module '@mdn/mdn-http-observatory/src/retriever/session.js' {
  export class Session {
    constructor(url: URL);
    url: URL;
    jar: { setCookieSync(cookie: string, url: string, options?: { ignoreError?: boolean }): unknown };
  }
}

declare module '@mdn/mdn-http-observatory/src/retriever/utils.js' {
  export function parseHttpEquivHeaders(html: string, baseUrl: string): Map<string, string[]>;
}

declare module '@mdn/mdn-http-observatory/src/retriever/retriever.js' {
  import type { Requests } from '@mdn/mdn-http-observatory/src/types.js';
  export function retrieve(hostname: string, options?: object): Promise<Requests>;
}

declare module '@mdn/mdn-http-observatory/src/scanner/index.js' {
  export interface MdnTestOutput {
    result: string | null;
    pass: boolean | null;
    scoreModifier: number | null;
    [key: string]: unknown;
  }
  export interface MdnScanResult {
    scan: { algorithmVersion: number; grade: string; score: number; statusCode: number; testsFailed: number; testsPassed: number; testsQuantity: number };
    tests: Record<string, MdnTestOutput>;
  }
  export function scan(hostname: string, options?: object): Promise<MdnScanResult>;
}

declare module '@mdn/mdn-http-observatory/src/grader/charts.js' {
  export const SCORE_TABLE: Map<string, { description: string; modifier: number; recommendation: string }>;
  export const MINIMUM_SCORE_FOR_EXTRA_CREDIT: number;
}

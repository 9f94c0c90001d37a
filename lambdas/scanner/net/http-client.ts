export interface HttpResponse {
  url: string;
  status: number;
  /** Header names lower-cased; repeated headers (set-cookie) keep every value. */
  headers: Record<string, string[]>;
  /** The body, cut at the request's maxBodyBytes. */
  body: string;
  /** Each hop followed before this response, in order. */
  redirects: { url: string; status: number; location: string }[];
}

/**
 * HTTP(S) GET/HEAD/OPTIONS/TRACE to the target's pinned addresses; redirects to other hosts are
 * resolved through the scanner's resolver and guarded like the target itself.
 */
export interface HttpClient {
  request(
    url: string,
    options?: { method?: 'GET' | 'HEAD' | 'OPTIONS' | 'TRACE'; headers?: Record<string, string>; followRedirects?: number; maxBodyBytes?: number; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<HttpResponse>;
}

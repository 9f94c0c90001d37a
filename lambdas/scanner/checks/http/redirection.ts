/**
 * Observatory test "redirection": where http://host/ leads. It counts in the Observatory score,
 * but the HTTP→HTTPS findings belong to the TLS check, so this file has none. When every host of
 * the chain is on the HSTS preload list, browsers never make those plain-HTTP requests at all:
 * "redirection-all-redirects-preloaded", as on the Observatory.
 */
import { NOT_PRELOADED, type PreloadLookup } from '../../hsts-preload.js';
import { chain, type Retrieved, type TestOutcome } from './retrieved.js';

export type RedirectionResult =
  | 'redirection-all-redirects-preloaded'
  | 'redirection-to-https'
  | 'redirection-not-needed-no-http'
  | 'redirection-off-host-from-http'
  | 'redirection-not-to-https-on-initial-redirection'
  | 'redirection-not-to-https'
  | 'redirection-missing'
  | 'redirection-invalid-cert';

export interface RedirectionOutcome extends TestOutcome<'redirection', RedirectionResult> {
  /** Every URL of the chain from http://host/, the final one last. */
  route: string[];
  destination: string | null;
  statusCode: number | null;
}

/** Runs the redirection test on the http:// session's chain; `preloaded` looks hosts up on the preload list. */
export function redirectionTest(retrieved: Retrieved, preloaded: PreloadLookup = NOT_PRELOADED): RedirectionOutcome {
  const response = retrieved.http;
  const route = chain(response).map(({ url, status }) => ({ url: new URL(url), status }));
  const outcome = (result: RedirectionResult, statusCode = response?.status ?? null): RedirectionOutcome => ({
    name: 'redirection',
    result,
    pass: result === 'redirection-to-https' || result === 'redirection-not-needed-no-http' || result === 'redirection-all-redirects-preloaded',
    route: route.map(({ url }) => url.href),
    destination: response?.url ?? null,
    statusCode,
  });
  if (!response) return outcome('redirection-not-needed-no-http');
  if (response.certificateTrusted === false) return outcome('redirection-invalid-cert');
  if (route.every(({ url }) => preloaded(url.hostname) !== null)) return outcome('redirection-all-redirects-preloaded');
  if (route.length === 1) return outcome('redirection-missing');
  const [first, second] = route;
  if (route.at(-1)!.url.protocol !== 'https:') return outcome('redirection-not-to-https');
  if (second!.url.protocol === 'http:') return outcome('redirection-not-to-https-on-initial-redirection', route.at(-1)!.status);
  // HSTS set over HTTP is ignored: the first hop must stay on the same host so its HSTS header counts.
  if (first!.url.protocol === 'http:' && second!.url.protocol === 'https:' && first!.url.hostname !== second!.url.hostname) {
    return outcome('redirection-off-host-from-http');
  }
  return outcome('redirection-to-https');
}

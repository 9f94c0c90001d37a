import { readFileSync } from 'node:fs';
import type { HttpProbe } from '../../../lambdas/scanner/checks/http.check.js';
import type { Retrieved, RetrievedHop, RetrievedResponse } from '../../../lambdas/scanner/checks/http/retrieved.js';

/** A response as the probe records it; header values may be given as one string. */
export function page(
  headers: Record<string, string | string[]> = {},
  options: { url?: string; status?: number; body?: string; redirects?: RetrievedHop[]; certificateTrusted?: boolean } = {},
): RetrievedResponse {
  const url = options.url ?? 'https://shop.example/';
  return {
    url,
    status: options.status ?? 200,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value : [value]])),
    body: options.body ?? '',
    redirects: options.redirects ?? [],
    ...(options.certificateTrusted === undefined && url.startsWith('http:') ? {} : { certificateTrusted: options.certificateTrusted ?? true }),
  };
}

/** A site whose HTTPS page is `https` (the header tests read it); other sessions as given. */
export function site(https: RetrievedResponse | null, rest: Partial<Retrieved> = {}): Retrieved {
  const host = new URL((https ?? rest.http)?.redirects[0]?.url ?? (https ?? rest.http)?.url ?? 'https://shop.example/').hostname;
  return { host, https, http: null, cors: null, robots: null, ...rest };
}

/** A whole-site capture from test/fixtures/http/sites. */
export function loadSite(name: string): HttpProbe & { description: string } {
  return JSON.parse(readFileSync(new URL(`../../fixtures/http/sites/${name}.json`, import.meta.url), 'utf8')) as HttpProbe & { description: string };
}

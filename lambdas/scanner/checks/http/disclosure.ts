/**
 * Version disclosure: Server, X-Powered-By and X-AspNet(Mvc)-Version headers that name the
 * software and its version, on any response of either session (a redirect hop served by the
 * origin server often tells more than a CDN in front of the page).
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { analyzed, CATEGORY, chain, header, type Retrieved } from './retrieved.js';

export interface ProductVersion {
  product: string;
  version: string;
}

export interface DisclosedHeader {
  header: string;
  value: string;
  /** product/version pairs read from the value ("Apache/2.4.62 (Debian) OpenSSL/3.0.15" gives two). */
  components: ProductVersion[];
  /** The first named product and its version, when the value has one. */
  product?: string;
  version?: string;
}

export interface Disclosure {
  /** The analyzed page's Server header (else the first one seen); null when no response had one. */
  server: DisclosedHeader | null;
  /** Every distinct Server value seen. */
  servers: DisclosedHeader[];
  /** X-Powered-By, X-AspNet-Version and X-AspNetMvc-Version values seen. */
  poweredBy: DisclosedHeader[];
}

const PRODUCT_VERSION = /([A-Za-z][A-Za-z0-9._+-]*)\/v?(\d+(?:\.\d+)*[0-9A-Za-z.+~_-]*)/g;
const VERSION_ONLY: Record<string, string> = { 'x-aspnet-version': 'ASP.NET', 'x-aspnetmvc-version': 'ASP.NET MVC' };

/** product/version pairs in a header value. */
export function productVersions(headerName: string, value: string): ProductVersion[] {
  const product = VERSION_ONLY[headerName];
  if (product) {
    const version = /\d+(?:\.\d+)*/.exec(value)?.[0];
    return version ? [{ product, version }] : [];
  }
  return [...value.matchAll(PRODUCT_VERSION)].map((match) => ({ product: match[1]!, version: match[2]! }));
}

function disclosed(headerName: string, value: string): DisclosedHeader {
  const components = productVersions(headerName, value);
  const first = components[0];
  return { header: headerName, value, components, ...(first ? { product: first.product, version: first.version } : {}) };
}

/** Server and X-Powered-By style headers from every response of both sessions. */
export function disclosureTest(retrieved: Retrieved): Disclosure {
  const responses = [...chain(retrieved.https), ...chain(retrieved.http)];
  const seen = (names: string[]) => {
    const found = new Map<string, DisclosedHeader>();
    for (const response of responses) {
      for (const name of names) {
        for (const value of response.headers[name] ?? []) {
          const key = `${name}\u0000${value}`;
          if (value.trim() && !found.has(key)) found.set(key, disclosed(name, value.trim()));
        }
      }
    }
    return [...found.values()];
  };
  const servers = seen(['server']);
  const page = analyzed(retrieved);
  const pageServer = page ? header(page.headers, 'server') : undefined;
  return {
    server: pageServer ? disclosed('server', pageServer.trim()) : (servers[0] ?? null),
    servers,
    poweredBy: seen(['x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version']),
  };
}

const finding = findingsFor('http');
const HEADER_NAMES: Record<string, string> = {
  server: 'Server',
  'x-powered-by': 'X-Powered-By',
  'x-aspnet-version': 'X-AspNet-Version',
  'x-aspnetmvc-version': 'X-AspNetMvc-Version',
};
const show = (headers: readonly DisclosedHeader[]) => headers.map((h) => `${HEADER_NAMES[h.header] ?? h.header}: ${h.value}`).join('; ');
const products = (headers: readonly DisclosedHeader[]) =>
  [...new Set(headers.flatMap((h) => h.components.map((c) => `${c.product} ${c.version}`)))].join(', ');
const BACKPORTS =
  'A version number is a clue, not proof of a vulnerability: Linux distributions often patch security holes without changing it (Debian\'s Apache 2.4.62 may carry later fixes).';

/** One finding per kind of header, only when a version number is given away. */
export function disclosureFindings(disclosure: Disclosure): Finding[] {
  const findings: Finding[] = [];
  const versionedServers = disclosure.servers.filter((s) => s.components.length > 0);
  if (versionedServers.length > 0) {
    findings.push(
      finding({
        id: 'http.disclosure.server-version',
        title: 'Web server announces its software version',
        severity: 'low',
        category: CATEGORY,
        evidence: show(versionedServers),
        description: `Every response tells visitors, and the automated scanners that crawl the internet, exactly which server software and version runs the site (${products(versionedServers)}), so attackers can look up known holes for that version without probing. ${BACKPORTS}`,
        recommendation:
          'Hide the version: in nginx `server_tokens off;`, in Apache `ServerTokens Prod` and `ServerSignature Off`, in IIS remove the Server header with URL Rewrite or `removeServerHeader`. And keep the server updated, which matters more. Rated low: it saves an attacker time, it does not open a hole.',
      }),
    );
  }
  const versionedPoweredBy = disclosure.poweredBy.filter((p) => p.components.length > 0);
  if (versionedPoweredBy.length > 0) {
    findings.push(
      finding({
        id: 'http.disclosure.powered-by',
        title: 'Application platform announces its version',
        severity: 'low',
        category: CATEGORY,
        evidence: show(versionedPoweredBy),
        description: `Response headers name the language or framework behind the site and its version (${products(versionedPoweredBy)}). Old PHP and ASP.NET versions have well-known holes, and this header tells attackers which ones to try. ${BACKPORTS}`,
        recommendation:
          'Remove these headers: in PHP set `expose_php = Off` in php.ini; in ASP.NET set `<httpRuntime enableVersionHeader="false" />` and remove X-Powered-By in IIS; in Express use `app.disable(\'x-powered-by\')`. Keep the platform on a supported version. Rated low: it saves an attacker time, it does not open a hole.',
      }),
    );
  }
  return findings;
}

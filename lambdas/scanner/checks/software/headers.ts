/**
 * Fingerprints in HTTP response headers and cookies: what the server and the application say about
 * themselves (Server, X-Powered-By, X-AspNet-Version, X-Generator …) and the conventions they leave
 * (session cookie names, CMS-specific headers). Pure functions over captured responses.
 */
import { identify } from './names.js';
import { isLineOnly, parseProductTokens, splitVersion } from './tokens.js';
import type { Confidence, Sighting, TechnologyCategory, TechnologySource } from './types.js';

/** One response's headers (names lower case, every value kept) and where it came from. */
export interface HeaderSource {
  url: string;
  headers: Readonly<Record<string, readonly string[]>>;
}

interface Reading {
  name: string;
  version?: string;
  category?: TechnologyCategory;
  confidence: Confidence;
  source: TechnologySource;
  where: string;
  value: string;
  backportHint?: string;
}

/** A sighting from a reading: the name resolved to its product, a release-line version marked as such. */
export function sighting(reading: Reading): Sighting {
  const known = identify(reading.name, reading.category ?? 'other');
  const version = known.versionIsNotProducts ? undefined : reading.version;
  return {
    name: known.name,
    ...(known.product ? { product: known.product } : {}),
    category: known.category,
    ...(version ? { version, ...(isLineOnly(version, known.product) ? { versionScope: 'line' as const } : {}) } : {}),
    confidence: reading.confidence,
    source: reading.source,
    where: reading.where,
    value: reading.value,
    ...(reading.backportHint ? { backportHint: reading.backportHint } : {}),
  };
}

/**
 * Every product named in a Server-style value, each carrying the value's comments as its backport
 * hint: in `Apache/2.4.71 (Debian) OpenSSL/3.0.19` the `(Debian)` is the build's, so OpenSSL too is
 * Debian's package.
 */
export function productTokenSightings(
  value: string,
  base: { source: TechnologySource; where: string; confidence: Confidence; firstCategory?: TechnologyCategory },
): Sighting[] {
  const { tokens, comments } = parseProductTokens(value);
  return tokens
    .filter((token) => /[a-z]/i.test(token.name))
    .map((token, index) => {
      const hint = [token.suffix, ...comments].filter(Boolean).join(' ');
      return sighting({
        name: token.name,
        ...(token.version ? { version: token.version } : {}),
        category: index === 0 ? base.firstCategory : undefined,
        confidence: base.confidence,
        source: base.source,
        where: base.where,
        value,
        ...(hint ? { backportHint: hint } : {}),
      });
    });
}

/**
 * A generator string as CMSs and site builders write it: "WordPress 6.1.9", "Drupal 10 (https://www.drupal.org)",
 * "Joomla! - Open Source Content Management", "Elementor 3.8.1; features: …", "Powered by Slider Revolution 6.5.31 - …".
 */
export function parseGenerator(content: string): { name: string; version?: string; suffix?: string } | undefined {
  const head = content
    .replace(/^\s*powered by\s+/i, '')
    .split(/;|\s[-–|]\s|\s\(|,\s/)[0]!
    .trim();
  if (!head || !/[a-z]/i.test(head)) return undefined;
  const match = /^(.*?[^\s])\s+(v?\d[^\s]*)$/i.exec(head);
  const version = match ? splitVersion(match[2]!) : undefined;
  if (match && version) return { name: match[1]!, ...version };
  return { name: head };
}

/** Sightings from one generator string (a meta tag or an X-Generator header). */
export function generatorSightings(content: string, where: string, source: TechnologySource): Sighting[] {
  const parsed = parseGenerator(content);
  if (!parsed) return [];
  return [
    sighting({
      name: parsed.name,
      ...(parsed.version ? { version: parsed.version } : {}),
      category: 'cms',
      confidence: 'high',
      source,
      where,
      value: content.trim(),
      ...(parsed.suffix ? { backportHint: parsed.suffix } : {}),
    }),
  ];
}

/** A header's name as documentation writes it: `x-aspnet-version` → `X-AspNet-Version`. */
const SPELLING: Record<string, string> = { 'x-aspnet-version': 'X-AspNet-Version', 'x-aspnetmvc-version': 'X-AspNetMvc-Version', 'x-owa-version': 'X-OWA-Version', 'cf-ray': 'CF-Ray' };
function headerLabel(name: string): string {
  return SPELLING[name] ?? name.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

/** Headers that only one product sends; their presence names it (no version). */
const PRESENCE: { header: string; test: RegExp; name: string; category: TechnologyCategory; confidence: Confidence }[] = [
  { header: 'x-drupal-cache', test: /./, name: 'Drupal', category: 'cms', confidence: 'high' },
  { header: 'x-drupal-dynamic-cache', test: /./, name: 'Drupal', category: 'cms', confidence: 'high' },
  { header: 'x-pingback', test: /\/xmlrpc\.php\b/, name: 'WordPress', category: 'cms', confidence: 'medium' },
  { header: 'link', test: /rel="?https:\/\/api\.w\.org\/"?/, name: 'WordPress', category: 'cms', confidence: 'medium' },
  { header: 'x-redirect-by', test: /^WordPress$/i, name: 'WordPress', category: 'cms', confidence: 'medium' },
  { header: 'x-varnish', test: /./, name: 'Varnish', category: 'proxy', confidence: 'medium' },
  { header: 'via', test: /\bvarnish\b/i, name: 'Varnish', category: 'proxy', confidence: 'medium' },
  { header: 'cf-ray', test: /./, name: 'Cloudflare', category: 'cdn', confidence: 'medium' },
  { header: 'x-amz-cf-id', test: /./, name: 'Amazon CloudFront', category: 'cdn', confidence: 'medium' },
  { header: 'x-shopify-stage', test: /./, name: 'Shopify', category: 'cms', confidence: 'medium' },
  { header: 'x-litespeed-cache', test: /./, name: 'LiteSpeed', category: 'web-server', confidence: 'medium' },
  { header: 'x-powered-by-plesk', test: /./, name: 'Plesk', category: 'hosting-panel', confidence: 'medium' },
];

/** Sightings from one response's headers (cookies excepted: see cookieSightings). */
export function headerSightings({ url, headers }: HeaderSource): Sighting[] {
  const found: Sighting[] = [];
  const on = (name: string) => `${headerLabel(name)} header on ${url}`;
  for (const value of headers.server ?? []) {
    if (value.trim()) found.push(...productTokenSightings(value.trim(), { source: 'server-header', where: on('server'), confidence: 'high', firstCategory: 'web-server' }));
  }
  for (const value of headers['x-powered-by'] ?? []) {
    for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
      const where = on('x-powered-by');
      if (part.includes('/')) {
        found.push(...productTokenSightings(part, { source: 'powered-by-header', where, confidence: 'high', firstCategory: 'framework' }));
        continue;
      }
      // "ASP.NET", "Next.js", "WP Engine", "ZendServer 8.5.0": a name, perhaps with a version after a space.
      const spaced = /^(.*?[^\s])\s+(v?\d+(?:\.\d+)+\S*)$/.exec(part);
      const version = spaced ? splitVersion(spaced[2]!) : undefined;
      found.push(
        sighting({
          name: spaced && version ? spaced[1]! : part,
          ...(version ? { version: version.version, ...(version.suffix ? { backportHint: version.suffix } : {}) } : {}),
          category: 'framework',
          confidence: 'high',
          source: 'powered-by-header',
          where,
          value: part,
        }),
      );
    }
  }
  const versionOnly: [string, string, TechnologySource][] = [
    ['x-aspnet-version', 'ASP.NET', 'aspnet-version-header'],
    ['x-aspnetmvc-version', 'ASP.NET MVC', 'aspnet-version-header'],
    ['x-owa-version', 'Microsoft Exchange Server', 'header'],
  ];
  for (const [header, name, source] of versionOnly) {
    for (const value of headers[header] ?? []) {
      const version = splitVersion(value);
      if (version) found.push(sighting({ name, version: version.version, category: 'framework', confidence: 'high', source, where: on(header), value: value.trim() }));
    }
  }
  for (const value of headers['x-generator'] ?? []) found.push(...generatorSightings(value, on('x-generator'), 'generator-header'));
  for (const rule of PRESENCE) {
    const value = (headers[rule.header] ?? []).find((v) => rule.test.test(v));
    if (value !== undefined) {
      found.push(sighting({ name: rule.name, category: rule.category, confidence: rule.confidence, source: 'header', where: on(rule.header), value: `${headerLabel(rule.header)}: ${value}` }));
    }
  }
  return found;
}

/** Cookie names that frameworks and CMSs give their session (and other) cookies by default. */
const COOKIES: { test: RegExp; name: string; category: TechnologyCategory; confidence: Confidence }[] = [
  { test: /^PHPSESSID$/, name: 'PHP', category: 'language', confidence: 'medium' },
  { test: /^JSESSIONID$/, name: 'Java', category: 'language', confidence: 'medium' },
  { test: /^(?:ASP\.NET_SessionId|\.ASPXAUTH|ASPSESSIONID[A-Z]{8})$/, name: 'ASP.NET', category: 'framework', confidence: 'medium' },
  { test: /^\.AspNetCore\./, name: 'ASP.NET Core', category: 'framework', confidence: 'medium' },
  { test: /^laravel_session$/, name: 'Laravel', category: 'framework', confidence: 'medium' },
  { test: /^ci_session$/, name: 'CodeIgniter', category: 'framework', confidence: 'medium' },
  { test: /^(?:wordpress_(?:test_cookie|logged_in_[0-9a-f]+|sec_[0-9a-f]+|[0-9a-f]{32})|wp-settings-(?:time-)?\d+)$/, name: 'WordPress', category: 'cms', confidence: 'medium' },
  { test: /^S?SESS[0-9a-f]{32}$/, name: 'Drupal', category: 'cms', confidence: 'medium' },
  { test: /^joomla_(?:user_state|remember_me_[0-9a-f]+)$/, name: 'Joomla!', category: 'cms', confidence: 'medium' },
  { test: /^PrestaShop-[0-9a-f]{32}$/, name: 'PrestaShop', category: 'cms', confidence: 'medium' },
  { test: /^mage-(?:cache-sessid|cache-storage|messages)$/, name: 'Magento', category: 'cms', confidence: 'medium' },
  { test: /^_shopify_[a-z]+$/, name: 'Shopify', category: 'cms', confidence: 'medium' },
  { test: /^connect\.sid$/, name: 'Express', category: 'framework', confidence: 'medium' },
  { test: /^(?:CFID|CFTOKEN)$/, name: 'ColdFusion', category: 'language', confidence: 'medium' },
  { test: /^csrftoken$/, name: 'Django', category: 'framework', confidence: 'low' },
  { test: /^_[a-z0-9]+(?:_[a-z0-9]+)*_session$/, name: 'Ruby on Rails', category: 'framework', confidence: 'low' },
  { test: /^__cf_bm$|^__cfduid$/, name: 'Cloudflare', category: 'cdn', confidence: 'medium' },
];

/** Sightings from the cookies one response sets (one per product, naming the first matching cookie). */
export function cookieSightings({ url, headers }: HeaderSource): Sighting[] {
  const found = new Map<string, Sighting>();
  for (const cookie of headers['set-cookie'] ?? []) {
    const name = cookie.split('=')[0]!.trim();
    const rule = COOKIES.find((r) => r.test.test(name));
    if (!rule || found.has(rule.name)) continue;
    found.set(rule.name, sighting({ name: rule.name, category: rule.category, confidence: rule.confidence, source: 'cookie', where: `cookie set by ${url}`, value: name }));
  }
  return [...found.values()];
}

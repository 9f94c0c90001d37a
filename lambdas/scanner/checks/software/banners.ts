/**
 * What other checks already read from the servers: the port scan's banners (SSH, SMTP, FTP, the
 * MySQL/MariaDB greeting, an HTTP HEAD's Server header), the email check's MX greetings and the
 * WordPress check's version and plugins. Only what a server volunteers when a client connects;
 * nothing here sends a command. The other checks' data is read defensively: it is `unknown` here.
 */
import { identifyService } from '../ports/services.js';
import { productTokenSightings, sighting } from './headers.js';
import type { Confidence, Sighting, TechnologySource } from './types.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

const SOURCE_BY_SERVICE: Record<string, TechnologySource> = { ssh: 'ssh-banner', smtp: 'smtp-banner', submission: 'smtp-banner', ftp: 'ftp-banner', mysql: 'mysql-greeting' };
const LABEL_BY_SOURCE: Partial<Record<TechnologySource, string>> = {
  'ssh-banner': 'SSH banner',
  'smtp-banner': 'SMTP banner',
  'ftp-banner': 'FTP banner',
  'mysql-greeting': 'MySQL greeting',
  'http-banner': 'HTTP Server header',
  'service-banner': 'banner',
};

/** The banner's first line, as shown in evidence. */
function firstLine(banner: string): string {
  return banner.split(/\r?\n/)[0]!.trim().slice(0, 200);
}

/**
 * Sightings from the ports check's `data.open` ([{port, service, product?, version?, extra?, banner?, tls?}]).
 * An HTTP port's banner is the answer to one HEAD: its Server header is read like the page's.
 */
export function portSightings(open: unknown): Sighting[] {
  if (!Array.isArray(open)) return [];
  const found: Sighting[] = [];
  for (const entry of open) {
    if (!isRecord(entry) || typeof entry.port !== 'number') continue;
    const service = text(entry.service) ?? 'unknown';
    const banner = text(entry.banner);
    if (banner && /^HTTP\/\d/.test(banner)) {
      const server = /^server:\s*(.+?)\s*$/im.exec(banner)?.[1];
      if (server) found.push(...productTokenSightings(server, { source: 'http-banner', where: `HTTP Server header on port ${entry.port}`, confidence: 'high', firstCategory: 'web-server' }));
      continue;
    }
    const product = text(entry.product);
    if (!product) continue;
    const source = SOURCE_BY_SERVICE[service] ?? 'service-banner';
    const version = text(entry.version);
    const extra = text(entry.extra);
    found.push(
      sighting({
        name: product,
        ...(version ? { version } : {}),
        confidence: 'high',
        source,
        where: `${LABEL_BY_SOURCE[source] ?? 'banner'} on port ${entry.port}`,
        // The MySQL greeting is binary: show what was read from it rather than the bytes.
        value: source === 'mysql-greeting' || !banner ? [product, version, extra].filter(Boolean).join(' ') : firstLine(banner),
        ...(extra ? { backportHint: extra } : {}),
      }),
    );
  }
  return found;
}

/** Sightings from the email check's `data.mx` ([{host, address?, banner?}]): each MX's SMTP greeting. */
export function mxSightings(mx: unknown): Sighting[] {
  if (!Array.isArray(mx)) return [];
  const found: Sighting[] = [];
  for (const entry of mx) {
    if (!isRecord(entry)) continue;
    const banner = text(entry.banner);
    if (!banner) continue;
    // The SMTP client keeps the greeting's text; identifyService expects the reply code in front.
    const guess = identifyService(25, /^220[ -]/.test(banner) ? banner : `220 ${banner}`);
    if (!guess.product) continue;
    const host = text(entry.host) ?? 'the MX';
    const address = text(entry.address);
    found.push(
      sighting({
        name: guess.product,
        ...(guess.version ? { version: guess.version } : {}),
        category: 'mail-server',
        confidence: 'high',
        source: 'smtp-banner',
        where: `SMTP banner of MX ${host}${address ? ` (${address})` : ''}`,
        value: firstLine(banner),
        ...(guess.extra ? { backportHint: guess.extra } : {}),
      }),
    );
  }
  return found;
}

function describeSources(sources: unknown): string[] {
  if (!Array.isArray(sources)) return [];
  return sources
    .map((source) => (typeof source === 'string' ? source : isRecord(source) ? [text(source.source), text(source.version)].filter(Boolean).join(' ') : ''))
    .filter((source) => source.length > 0);
}

const CONFIDENCES: readonly string[] = ['high', 'medium', 'low'];

/**
 * Sightings from the WordPress check's data (`version`, `versionConfidence`, `versionSources:
 * [{source, version, evidence?}]`, `plugins: [{slug, version}]`). The version is as sure as the
 * WordPress check says it is (it weighs its sources); without its word, high when two sources gave one.
 */
export function wordpressSightings(data: unknown): Sighting[] {
  if (!isRecord(data)) return [];
  const found: Sighting[] = [];
  const version = text(data.version);
  const sources = describeSources(data.versionSources);
  if (version) {
    const stated = typeof data.versionConfidence === 'string' && CONFIDENCES.includes(data.versionConfidence) ? (data.versionConfidence as Confidence) : undefined;
    found.push(
      sighting({
        name: 'WordPress',
        version,
        category: 'cms',
        confidence: stated ?? (sources.length >= 2 ? 'high' : 'medium'),
        source: 'wordpress-check',
        where: 'the WordPress check',
        value: sources.length ? `WordPress ${version} (${sources.join('; ')})` : `WordPress ${version}`,
      }),
    );
  }
  if (Array.isArray(data.plugins)) {
    for (const plugin of data.plugins) {
      if (!isRecord(plugin)) continue;
      const slug = text(plugin.slug);
      if (!slug) continue;
      const pluginVersion = text(plugin.version);
      found.push({
        // Plugins are not in the knowledge base (the WordPress check matches them): no product id.
        name: `WordPress plugin ${slug}`,
        category: 'cms',
        ...(pluginVersion ? { version: pluginVersion } : {}),
        confidence: 'medium',
        source: 'wordpress-check',
        where: 'the WordPress check',
        value: pluginVersion ? `${slug} ${pluginVersion}` : slug,
      });
    }
  }
  return found;
}

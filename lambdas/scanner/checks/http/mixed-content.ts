/**
 * Mixed content (W3C Mixed Content): an HTTPS page that loads subresources over plain http://.
 * Scripts, stylesheets, frames and plugin content are "active" (blockable): browsers block them,
 * so the page breaks, and where one loads, anyone on the path can rewrite the page through it.
 * Images, audio and video are "passive" (upgradable): browsers try them over https and may drop
 * them; an attacker on the path can see or swap them. Read from the landing page's markup only:
 * resources added later by scripts or CSS url() are not seen.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { type HtmlTag, pageMeta, startTags } from './html.js';
import { CATEGORY, header, HTML_TYPES, mediaType, type RetrievedResponse } from './retrieved.js';

export interface MixedResource {
  /** Tag and attribute it came from: `script src`. */
  element: string;
  url: string;
  kind: 'active' | 'passive';
}

export interface MixedContentReport {
  /** False when the page is not an HTTPS HTML page (nothing to judge). */
  checked: boolean;
  url: string;
  active: MixedResource[];
  passive: MixedResource[];
  /** The page's CSP (header or meta) has upgrade-insecure-requests: browsers fetch every http:// subresource over https. */
  upgradeInsecureRequests: boolean;
}

const isPlainHttp = (value: string | undefined): value is string => value !== undefined && /^http:\/\//i.test(value.trim());

/** The URLs of a srcset: each candidate's first token. */
function srcsetUrls(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/,(?=\s|h|H|\/)/)
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url.length > 0);
}

/** The subresources of one tag that load over plain HTTP. */
function resourcesOf(tag: HtmlTag): MixedResource[] {
  const found: MixedResource[] = [];
  const add = (attribute: string, kind: MixedResource['kind'], value = tag.attributes.get(attribute)) => {
    if (isPlainHttp(value)) found.push({ element: `${tag.name} ${attribute}`, url: value.trim(), kind });
  };
  switch (tag.name) {
    case 'script':
    case 'iframe':
    case 'frame':
    case 'embed':
      add('src', 'active');
      break;
    case 'object':
      add('data', 'active');
      break;
    case 'link': {
      const rel = (tag.attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
      const as = (tag.attributes.get('as') ?? '').toLowerCase();
      if (rel.includes('stylesheet') || rel.includes('modulepreload') || (rel.includes('preload') && ['script', 'style', 'worker', 'document'].includes(as))) add('href', 'active');
      else if (rel.includes('icon') || (rel.includes('preload') && ['image', 'audio', 'video', 'font'].includes(as))) add('href', 'passive');
      break;
    }
    case 'img':
    case 'source':
      add('src', 'passive');
      for (const url of srcsetUrls(tag.attributes.get('srcset'))) add('srcset', 'passive', url);
      break;
    case 'audio':
    case 'track':
      add('src', 'passive');
      break;
    case 'video':
      add('src', 'passive');
      add('poster', 'passive');
      break;
    case 'input':
      if ((tag.attributes.get('type') ?? '').toLowerCase() === 'image') add('src', 'passive');
      break;
  }
  return found;
}

/** Mixed content of the analyzed page: only an HTML page that answered over HTTPS is judged. */
export function mixedContentOf(page: RetrievedResponse): MixedContentReport {
  const type = mediaType(page.headers);
  let secure = false;
  try {
    secure = new URL(page.url).protocol === 'https:';
  } catch {
    secure = false;
  }
  const none = { url: page.url, active: [], passive: [], upgradeInsecureRequests: false };
  if (!secure || !type || !HTML_TYPES.has(type) || !page.body) return { checked: false, ...none };
  const resources = startTags(page.body).flatMap(resourcesOf);
  const unique = resources.filter((r, index) => resources.findIndex((o) => o.url === r.url && o.kind === r.kind) === index);
  const policies = [header(page.headers, 'content-security-policy') ?? '', ...pageMeta(page).csp];
  return {
    checked: true,
    url: page.url,
    active: unique.filter((r) => r.kind === 'active'),
    passive: unique.filter((r) => r.kind === 'passive'),
    upgradeInsecureRequests: policies.some((policy) => /(^|[;,]\s*)upgrade-insecure-requests\s*($|[;,])/i.test(policy.trim())),
  };
}

const finding = findingsFor('http');
const MAX_LISTED = 5;

function list(resources: readonly MixedResource[]): string {
  const shown = resources.slice(0, MAX_LISTED).map((r) => `${r.element}=${r.url}`);
  return resources.length > MAX_LISTED ? `${shown.join(', ')} and ${resources.length - MAX_LISTED} more` : shown.join(', ');
}

/** Findings: active mixed content (high) and passive (low); observations when upgrade-insecure-requests already upgrades them. */
export function mixedContentFindings(report: MixedContentReport): Finding[] {
  if (!report.checked) return [];
  const upgraded = report.upgradeInsecureRequests ? ' (the page\'s CSP upgrade-insecure-requests makes browsers ask for them over https)' : '';
  const findings: Finding[] = [];
  if (report.active.length > 0) {
    findings.push(
      finding({
        id: 'http.mixed-content.active',
        title: 'The HTTPS page loads scripts, styles or frames over plain HTTP',
        severity: report.upgradeInsecureRequests ? 'info' : 'high',
        category: CATEGORY,
        evidence: `${report.url}: ${list(report.active)}${upgraded}`,
        description:
          'Scripts, stylesheets and frames fetched over http:// can be read and rewritten by anyone on the network path (public Wi-Fi, a compromised router), and whoever controls a script controls the whole page: its forms, its passwords, its payments. Browsers block them, so those parts of the page are also broken for visitors.',
        recommendation:
          'Change these addresses to https:// (or to a relative or //-address on your own site); if a provider does not offer HTTPS, host the file yourself. As a safety net, add `Content-Security-Policy: upgrade-insecure-requests`.',
      }),
    );
  }
  if (report.passive.length > 0) {
    findings.push(
      finding({
        id: 'http.mixed-content.passive',
        title: 'The HTTPS page loads images or media over plain HTTP',
        severity: report.upgradeInsecureRequests ? 'info' : 'low',
        category: CATEGORY,
        evidence: `${report.url}: ${list(report.passive)}${upgraded}`,
        description:
          'Images, audio and video fetched over http:// can be seen and swapped by anyone on the network path, which reveals what visitors look at and can put false content on your page. Browsers now try them over https and drop those that fail, and stop showing the padlock as fully secure.',
        recommendation: 'Change these addresses to https://, or add `Content-Security-Policy: upgrade-insecure-requests` once every one of them is available over HTTPS.',
      }),
    );
  }
  return findings;
}

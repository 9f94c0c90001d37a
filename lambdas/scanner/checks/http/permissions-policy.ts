/**
 * Permissions-Policy (W3C Permissions Policy): which browser features (camera, microphone,
 * geolocation, payment …) the page and the frames it embeds may use. Not an Observatory test, so it
 * adds nothing to the score. The header is an RFC 8941 dictionary; browsers ignore all of it when it
 * does not parse, and ignore allowlist entries other than *, self, src and quoted origins.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { CATEGORY, clip, type HeaderMap } from './retrieved.js';
import { type BareItem, isInnerList, parseDictionary, StructuredFieldError } from './structured-field.js';

/** Features that reach the visitor's devices, location, money or data: granting them to every origin (`*`) is flagged. */
export const POWERFUL_FEATURES = [
  'camera',
  'microphone',
  'geolocation',
  'payment',
  'usb',
  'serial',
  'hid',
  'bluetooth',
  'midi',
  'display-capture',
  'xr-spatial-tracking',
  'clipboard-read',
  'publickey-credentials-get',
  'identity-credentials-get',
  'local-fonts',
] as const;

/** Features browsers know (the W3C registry's, standard and proposed); others are reported in data, not as a fault. */
const KNOWN_FEATURES = new Set<string>([
  ...POWERFUL_FEATURES,
  'accelerometer', 'ambient-light-sensor', 'attribution-reporting', 'autoplay', 'browsing-topics', 'captured-surface-control',
  'ch-ua', 'clipboard-write', 'compute-pressure', 'cross-origin-isolated', 'deferred-fetch', 'document-domain', 'encrypted-media',
  'execution-while-not-rendered', 'execution-while-out-of-viewport', 'fullscreen', 'gamepad', 'gyroscope', 'idle-detection',
  'interest-cohort', 'keyboard-map', 'magnetometer', 'otp-credentials', 'picture-in-picture', 'private-state-token-issuance',
  'private-state-token-redemption', 'publickey-credentials-create', 'screen-wake-lock', 'speaker-selection', 'storage-access',
  'sync-xhr', 'unload', 'web-share', 'window-management', 'run-ad-auction', 'join-ad-interest-group', 'shared-storage',
  'shared-storage-select-url', 'smart-card', 'summarizer', 'language-detector', 'translator', 'direct-sockets',
]);

export interface PermissionsPolicyReport {
  /** The header as sent (repeated lines joined with ", "); null when absent. */
  value: string | null;
  /** Whether it parses as a structured-field dictionary (null when absent). */
  valid: boolean | null;
  /** Why it does not parse: browsers then ignore the whole header. */
  syntaxError: string | null;
  /** Each feature and its allowlist as browsers read it ("*", "self", "src", origins; [] = nobody). */
  features: Record<string, string[]>;
  /** Allowlist entries browsers ignore (a token other than * / self / src, a number …), per feature. */
  ignoredEntries: { feature: string; entry: string }[];
  /** Powerful features allowed to every origin. */
  broad: string[];
  unknownFeatures: string[];
}

function entryOf(item: BareItem): { ok: true; value: string } | { ok: false; value: string } {
  if (item.type === 'token' && ['*', 'self', 'src'].includes(item.value)) return { ok: true, value: item.value };
  if (item.type === 'string') {
    try {
      const url = new URL(item.value);
      if (url.origin !== 'null') return { ok: true, value: url.origin };
    } catch {
      // not a URL: ignored by browsers, reported below
    }
    return { ok: false, value: `"${item.value}"` };
  }
  return { ok: false, value: item.type === 'token' || item.type === 'bytes' ? item.value : String(item.value) };
}

/** Reads the Permissions-Policy header of the analyzed response. */
export function permissionsPolicyOf(headers: HeaderMap): PermissionsPolicyReport {
  const lines = headers['permissions-policy'];
  const empty = { features: {}, ignoredEntries: [], broad: [], unknownFeatures: [] };
  if (!lines || lines.length === 0) return { value: null, valid: null, syntaxError: null, ...empty };
  const value = lines.join(', ');
  let members;
  try {
    members = parseDictionary(value);
  } catch (error) {
    const message = error instanceof StructuredFieldError ? error.message : String(error);
    const legacy = /'(none|self|src)'|^\s*[a-z-]+\s+('|\*|https?:)/i.test(value) ? ' (this is the older Feature-Policy syntax)' : '';
    return { value, valid: false, syntaxError: `${message}${legacy}`, ...empty };
  }
  const features: Record<string, string[]> = {};
  const ignoredEntries: { feature: string; entry: string }[] = [];
  for (const [feature, member] of members) {
    const items = isInnerList(member) ? member.items : [member];
    const allowlist: string[] = [];
    for (const { item } of items) {
      const entry = entryOf(item);
      if (entry.ok) allowlist.push(entry.value);
      else ignoredEntries.push({ feature, entry: entry.value });
    }
    features[feature] = allowlist;
  }
  return {
    value,
    valid: true,
    syntaxError: null,
    features,
    ignoredEntries,
    broad: POWERFUL_FEATURES.filter((feature) => features[feature]?.includes('*')),
    unknownFeatures: Object.keys(features).filter((feature) => !KNOWN_FEATURES.has(feature)),
  };
}

const finding = findingsFor('http');
const EXAMPLE = 'Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** Findings: absent (an observation), unreadable or partly ignored, and powerful features open to every origin. */
export function permissionsPolicyFindings(report: PermissionsPolicyReport): Finding[] {
  if (report.value === null) {
    return [
      finding({
        id: 'http.permissions-policy.missing',
        title: 'No Permissions-Policy header',
        severity: 'info',
        category: CATEGORY,
        evidence: 'Permissions-Policy header not sent',
        description:
          'Permissions-Policy tells browsers which powerful features (camera, microphone, location, payments, USB …) the site and the frames it embeds may ask for. Without it, the browser defaults apply: a third-party frame that you allow can still ask visitors for them. This is defence in depth, not a weakness on its own.',
        recommendation: `Send a header that turns off what the site does not use, e.g. \`${EXAMPLE}\`, and list an origin only for a feature it really needs (\`geolocation=(self "https://maps.example")\`).`,
      }),
    ];
  }
  const findings: Finding[] = [];
  if (report.valid === false || report.ignoredEntries.length > 0) {
    findings.push(
      finding({
        id: 'http.permissions-policy.invalid',
        title: report.valid === false ? 'The Permissions-Policy header cannot be read, so browsers ignore it' : 'Parts of the Permissions-Policy header are ignored',
        severity: 'low',
        category: CATEGORY,
        evidence: clip(
          report.valid === false
            ? `Permissions-Policy: ${report.value}: ${report.syntaxError}`
            : `ignored allowlist entries: ${report.ignoredEntries.map(({ feature, entry }) => `${feature}=${entry}`).join(', ')}`,
        ),
        description:
          'Permissions-Policy is a structured header (RFC 8941): `feature=()` to turn a feature off, `feature=(self "https://origin")` to allow it to listed origins, `feature=*` for everyone. Browsers drop the whole header when it does not parse, and drop allowlist entries that are not `*`, `self`, `src` or a quoted origin (\'none\' and unquoted origins are the older Feature-Policy syntax).',
        recommendation: `Rewrite the header in the structured syntax, e.g. \`${EXAMPLE}\`, and check it in the browser's DevTools (Application → Frames → Permissions Policy).`,
      }),
    );
  }
  if (report.broad.length > 0) {
    findings.push(
      finding({
        id: 'http.permissions-policy.broad',
        title: 'Permissions-Policy allows powerful features to every site',
        severity: 'low',
        category: CATEGORY,
        evidence: report.broad.map((feature) => `${feature}=*`).join(', '),
        description:
          'With `*`, any frame the page embeds, from any origin (an ad, a widget, a page an attacker got framed), may ask visitors for these features: their camera, microphone, location, payment methods or devices. The permission prompt then names the site, not the frame.',
        recommendation: 'Allow these features only to the site itself and the origins that need them (`camera=(self "https://video.example")`), or turn them off (`camera=()`).',
      }),
    );
  }
  return findings;
}

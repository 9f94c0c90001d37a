/**
 * Observatory test "content-security-policy": parses the enforced policies (headers, and
 * http-equiv meta tags of an HTML page) the way the MDN HTTP Observatory does, then judges the
 * effective script-src / object-src / style-src, insecure schemes and default-src 'none'.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { pageMeta } from './html.js';
import { analyzed, CATEGORY, clip, header, type Retrieved, sessionUrl, type TestOutcome } from './retrieved.js';

export type CspResult =
  | 'csp-implemented-with-no-unsafe-default-src-none'
  | 'csp-implemented-with-no-unsafe'
  | 'csp-implemented-with-unsafe-inline-in-style-src-only'
  | 'csp-implemented-with-insecure-scheme-in-passive-content-only'
  | 'csp-implemented-with-unsafe-eval'
  | 'csp-implemented-with-unsafe-inline'
  | 'csp-implemented-with-insecure-scheme'
  | 'csp-implemented-but-duplicate-directives'
  | 'csp-header-invalid'
  | 'csp-not-implemented'
  | 'csp-not-implemented-but-reporting-enabled';

/** What the effective policy allows, as the Observatory's Policy object records it. */
export interface CspPolicy {
  antiClickjacking: boolean;
  defaultNone: boolean;
  insecureBaseUri: boolean;
  insecureFormAction: boolean;
  insecureSchemeActive: boolean;
  insecureSchemePassive: boolean;
  strictDynamic: boolean;
  unsafeEval: boolean;
  unsafeInline: boolean;
  unsafeInlineStyle: boolean;
  unsafeObjects: boolean;
}

export interface CspOutcome extends TestOutcome<'content-security-policy', CspResult> {
  /** The effective policy's directives and their sources (sorted); null when no policy could be read. */
  directives: Record<string, string[]> | null;
  policy: CspPolicy | null;
  /** Where the policy came from. */
  http: boolean;
  meta: boolean;
  /** The sources behind each problem, for the evidence ("script-src: 'unsafe-inline'"). */
  offenders: { unsafeInline: string[]; unsafeEval: string[]; insecureActive: string[]; insecurePassive: string[] };
}

export class CspParseError extends Error {}

export interface ParsedCsp {
  directives: Map<string, Set<string>>;
  /** report-uri / report-to given more than once in one policy (allowed, but worth fixing). */
  duplicates: Set<string>;
}

const SHORTEST_POLICY = 'img-src'.length - 1;
const DISALLOWED_IN_META = ['frame-ancestors', 'report-uri', 'sandbox'];
const ALLOWED_DUPLICATES = new Set(['report-uri', 'report-to']);
const DANGEROUSLY_BROAD = new Set(['ftp:', 'http:', 'https:', '*', 'http://*', 'http://*.*', 'https://*', 'https://*.*']);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", 'data:']);
const BROAD_OR_INLINE = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const PASSIVE_DIRECTIVES = ['img-src', 'media-src'];
const NONCES_HASHES = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];
const collate = new Intl.Collator('en').compare;

interface Source {
  source: string;
  policy: number;
  keep: boolean;
}

/**
 * Parses one or more policies into one effective policy, as the Observatory does: a directive
 * repeated within a policy is an error (except report-uri/report-to); with several policies, a
 * source counts only when the later policies allow it too; an empty *-src directive means 'none'.
 * Throws CspParseError for a policy it cannot read.
 */
export function parseCsp(policies: readonly string[]): ParsedCsp {
  const clean = policies.map((policy) => policy.replace(/[\r\n]/g, '').trim());
  const duplicates = new Set<string>();
  if (clean.length === 0) return { directives: new Map(), duplicates };
  for (const policy of clean) {
    if (policy.length < SHORTEST_POLICY) throw new CspParseError(`Invalid policy: ${policy}`);
  }

  const sources = new Map<string, Source[]>();
  for (const [index, policy] of clean.entries()) {
    const seen = new Set<string>();
    for (const entry of policy.split(';')) {
      const [name, ...values] = entry.trim().split(/\s+/);
      if (!name) continue;
      const directive = name.toLowerCase();
      if (seen.has(directive)) {
        if (!ALLOWED_DUPLICATES.has(directive)) throw new CspParseError(`Duplicate directive ${directive} in policy ${index}`);
        duplicates.add(directive);
      }
      seen.add(directive);

      const keep = index === 0;
      const given = values.map((value): Source => ({ source: value.trim().toLowerCase(), policy: index, keep }));
      if (given.length === 0 && directive.endsWith('-src')) given.push({ source: "'none'", policy: index, keep });
      const combined = index === 0 ? given : [...(sources.get(directive) ?? []), ...given];
      combined.sort((a, b) => collate(a.source, b.source));
      for (let k = 1; k < combined.length; k++) {
        const current = combined[k]!;
        const previous = combined[k - 1]!;
        // Within one policy a longer source under a shorter one adds nothing (https://a.example/x under https://a.example/).
        if (current.policy === previous.policy && current.source.startsWith(previous.source)) current.keep = false;
        // Across policies a source survives only when both allow it.
        if (current.policy !== previous.policy && pathPartMatch(previous.source, current.source)) current.keep = true;
      }
      sources.set(directive, combined.filter((source) => source.keep));
      if (index === 0 && clean.length > 1) {
        for (const source of sources.get(directive) ?? []) source.keep = false;
      }
    }
  }
  const directives = new Map(
    [...sources].map(([directive, list]) => [directive, new Set(list.length > 0 ? list.map((s) => s.source) : ["'none'"])]),
  );
  return { directives, duplicates };
}

function pathPartMatch(a: string, b: string): boolean {
  if (a.length === 0) return true;
  if (a === '/' && b.length === 0) return true;
  const exact = !a.endsWith('/');
  const partsA = a.split('/');
  const partsB = b.split('/');
  if (partsA.length > partsB.length) return false;
  if (exact && partsA.length !== partsB.length) return false;
  if (!exact) partsA.pop();
  try {
    return partsA.every((part, i) => decodeURIComponent(part) === decodeURIComponent(partsB[i]!));
  } catch {
    throw new CspParseError(`Malformed source ${b}`);
  }
}

function parseCspMeta(policies: readonly string[]): ParsedCsp {
  const parsed = parseCsp(policies);
  for (const directive of DISALLOWED_IN_META) parsed.directives.delete(directive);
  return parsed;
}

const splitPolicies = (values: readonly string[]) => values.flatMap((value) => value.split(',').map((policy) => policy.trim()));

const noOffenders = () => ({ unsafeInline: [], unsafeEval: [], insecureActive: [], insecurePassive: [] });

/** Runs the CSP test on the analyzed response. */
export function cspTest(retrieved: Retrieved): CspOutcome {
  const name = 'content-security-policy';
  const response = analyzed(retrieved);
  const url = sessionUrl(retrieved);
  const outcome = (result: CspResult, rest: Partial<CspOutcome> = {}): CspOutcome => ({
    name, result, pass: false, directives: null, policy: null, http: false, meta: false, offenders: noOffenders(), ...rest,
  });
  if (!response || !url) return outcome('csp-not-implemented');

  const httpPolicies = splitPolicies(response.headers['content-security-policy'] ?? []);
  const metaPolicies = splitPolicies(pageMeta(response).csp);
  let csp: ParsedCsp;
  try {
    csp = parseCsp([...httpPolicies, ...metaPolicies]);
  } catch {
    return outcome('csp-header-invalid');
  }
  const headerOnly = tryParse(() => parseCsp(httpPolicies));
  const metaOnly = tryParse(() => parseCspMeta(metaPolicies));
  if (headerOnly.directives.size + metaOnly.directives.size === 0) {
    // Report-Only is a header-only feature: a meta tag cannot set it.
    return outcome(header(response.headers, 'content-security-policy-report-only') ? 'csp-not-implemented-but-reporting-enabled' : 'csp-not-implemented');
  }

  const { directives } = csp;
  const policy: CspPolicy = {
    antiClickjacking: false, defaultNone: false, insecureBaseUri: false, insecureFormAction: false, insecureSchemeActive: false,
    insecureSchemePassive: false, strictDynamic: false, unsafeEval: false, unsafeInline: false, unsafeInlineStyle: false, unsafeObjects: false,
  };
  const offenders = noOffenders() as CspOutcome['offenders'];
  let result: CspResult | undefined;
  const setResult = (candidate: CspResult) => (result ??= candidate);

  // The same Set objects as in the parsed policy: a directive that falls back to default-src shares its sources.
  const lookup = (...names: string[]) => {
    for (const directive of names) {
      const found = directives.get(directive);
      if (found) return { directive, sources: found };
    }
    return { directive: `${names[0]} (unrestricted: no ${names.join(' or ')})`, sources: new Set(['*']) };
  };
  const baseUri = directives.get('base-uri') ?? new Set(['*']);
  const frameAncestors = headerOnly.directives.get('frame-ancestors') ?? new Set(['*']);
  const formAction = directives.get('form-action') ?? new Set(['*']);
  const objectSrc = lookup('object-src', 'default-src');
  const scriptSrc = lookup('script-src', 'default-src');
  const styleSrc = lookup('style-src', 'default-src');

  // A nonce or hash makes browsers ignore 'unsafe-inline' (it stays only for old browsers).
  for (const list of [scriptSrc.sources, styleSrc.sources]) {
    if (hasNonceOrHash(list)) list.delete("'unsafe-inline'");
  }
  if (hasNonceOrHash(scriptSrc.sources) && scriptSrc.sources.has("'strict-dynamic'")) {
    // With 'strict-dynamic' browsers ignore host and scheme sources, 'self' and 'unsafe-inline'.
    for (const source of scriptSrc.sources) {
      if ([...DANGEROUSLY_BROAD].some((broad) => source.startsWith(broad)) || source === "'self'" || source === "'unsafe-inline'") {
        scriptSrc.sources.delete(source);
      }
    }
    policy.strictDynamic = true;
  } else if (scriptSrc.sources.has("'strict-dynamic'")) {
    setResult('csp-header-invalid');
  }

  const activeSources = [
    ...[...directives].filter(([directive]) => !PASSIVE_DIRECTIVES.includes(directive) && directive !== 'script-src').flatMap(([, list]) => [...list]),
    ...scriptSrc.sources,
  ];
  const passiveSources = PASSIVE_DIRECTIVES.flatMap((directive) => [...(directives.get(directive) ?? directives.get('default-src') ?? [])]);
  const insecure = (source: string) => source.startsWith('http:') || source.startsWith('ftp:');
  const secureSite = url.protocol === 'https:';

  const unsafeScripts = [...scriptSrc.sources].filter((source) => BROAD_OR_INLINE.has(source));
  const broadObjects = [...objectSrc.sources].filter((source) => DANGEROUSLY_BROAD.has(source));
  if (unsafeScripts.length > 0 || broadObjects.length > 0) {
    setResult('csp-implemented-with-unsafe-inline');
    policy.unsafeInline = true;
    if (unsafeScripts.length > 0) offenders.unsafeInline.push(`${scriptSrc.directive}: ${unsafeScripts.join(' ')}`);
    if (broadObjects.length > 0) offenders.unsafeInline.push(`${objectSrc.directive}: ${broadObjects.join(' ')}`);
  }
  if (secureSite && activeSources.some(insecure)) {
    setResult('csp-implemented-with-insecure-scheme');
    policy.insecureSchemeActive = true;
    offenders.insecureActive.push(...new Set(activeSources.filter(insecure)));
  }
  if (scriptSrc.sources.has("'unsafe-eval'") || styleSrc.sources.has("'unsafe-eval'")) {
    setResult('csp-implemented-with-unsafe-eval');
    policy.unsafeEval = true;
    offenders.unsafeEval.push(`${scriptSrc.sources.has("'unsafe-eval'") ? scriptSrc.directive : styleSrc.directive}: 'unsafe-eval'`);
  }
  if (secureSite && passiveSources.some(insecure)) {
    setResult('csp-implemented-with-insecure-scheme-in-passive-content-only');
    policy.insecureSchemePassive = true;
    offenders.insecurePassive.push(...new Set(passiveSources.filter(insecure)));
  }
  if ([...styleSrc.sources].some((source) => BROAD_OR_INLINE.has(source))) {
    setResult('csp-implemented-with-unsafe-inline-in-style-src-only');
    policy.unsafeInlineStyle = true;
  }
  const defaultSrc = directives.get('default-src');
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) {
    setResult('csp-implemented-with-no-unsafe-default-src-none');
    policy.defaultNone = true;
  } else {
    setResult('csp-implemented-with-no-unsafe');
  }

  policy.antiClickjacking = ![...frameAncestors].some((source) => DANGEROUSLY_BROAD.has(source));
  policy.insecureBaseUri = [...baseUri].some((source) => BROAD_OR_INLINE.has(source));
  policy.insecureFormAction = [...formAction].some((source) => DANGEROUSLY_BROAD.has(source));
  policy.unsafeObjects = broadObjects.length > 0;

  let final = result!;
  const pass = PASSING.has(final);
  // A passing policy with a repeated report-uri/report-to loses its bonus, so that it gets fixed.
  if (pass && csp.duplicates.size > 0) final = 'csp-implemented-but-duplicate-directives';

  return outcome(final, {
    pass,
    policy,
    offenders,
    http: httpPolicies.length > 0,
    meta: metaPolicies.length > 0,
    directives: Object.fromEntries([...directives].map(([directive, list]) => [directive, [...list].sort()])),
  });
}

const PASSING = new Set<CspResult>([
  'csp-implemented-with-no-unsafe',
  'csp-implemented-with-no-unsafe-default-src-none',
  'csp-implemented-with-unsafe-inline-in-style-src-only',
  'csp-implemented-with-insecure-scheme-in-passive-content-only',
]);

function hasNonceOrHash(sources: ReadonlySet<string>): boolean {
  return [...sources].some((source) => NONCES_HASHES.some((prefix) => source.startsWith(prefix)));
}

function tryParse(parse: () => ParsedCsp): ParsedCsp {
  try {
    return parse();
  } catch {
    return { directives: new Map(), duplicates: new Set() };
  }
}

const finding = findingsFor('http');
const category = CATEGORY;

/** Findings for a site owner: a missing or bypassable policy, each unsafe allowance on its own. */
export function cspFindings(outcome: CspOutcome, retrieved: Retrieved): Finding[] {
  const response = analyzed(retrieved);
  const given = response ? header(response.headers, 'content-security-policy') : undefined;
  switch (outcome.result) {
    case 'csp-not-implemented':
      return [
        finding({
          id: 'http.csp.missing',
          title: 'No Content Security Policy',
          severity: 'medium',
          category,
          evidence: 'No Content-Security-Policy header (or meta tag) on the page',
          description:
            'A Content Security Policy tells browsers which scripts, styles and frames your pages may load. Without one, a single injected script (from a vulnerable plugin, a form field or a compromised third party) runs with full access to your visitors\' sessions and the data they type.',
          recommendation:
            "Add a Content-Security-Policy header. Start from `default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'`, list the outside services you really use, and test it first with Content-Security-Policy-Report-Only. Rated medium: it is the main defence against cross-site scripting, though it only matters once another flaw lets a script in.",
        }),
      ];
    case 'csp-not-implemented-but-reporting-enabled':
      return [
        finding({
          id: 'http.csp.report-only',
          title: 'Content Security Policy is only reported, not enforced',
          severity: 'medium',
          category,
          evidence: `Content-Security-Policy-Report-Only: ${clip(header(response?.headers, 'content-security-policy-report-only') ?? '')}`,
          description:
            'The site sends a Content-Security-Policy-Report-Only header: browsers report what the policy would block, but block nothing. Visitors are as exposed to injected scripts as with no policy at all.',
          recommendation:
            'Once the reports show no legitimate content being blocked, send the same policy as Content-Security-Policy. Rated medium, like a missing policy, because nothing is enforced.',
        }),
      ];
    case 'csp-header-invalid':
      return [
        finding({
          id: 'http.csp.invalid',
          title: 'Content Security Policy cannot be read',
          severity: 'medium',
          category,
          evidence: given ? `Content-Security-Policy: ${clip(given)}` : 'The page\'s CSP meta tag cannot be parsed',
          description:
            "The policy has a syntax error (a repeated directive, an empty policy, or 'strict-dynamic' without a nonce or hash). Browsers may ignore parts of it, so the protection you intended may not be there.",
          recommendation:
            'Fix the policy so that each directive appears once and every part is valid; check it with a CSP evaluator before deploying. Rated medium because the intended protection against injected scripts may be missing.',
        }),
      ];
    default:
      break;
  }
  const findings: Finding[] = [];
  if (outcome.policy?.unsafeInline) {
    findings.push(
      finding({
        id: 'http.csp.unsafe-inline',
        title: 'Content Security Policy allows inline or any-origin scripts',
        severity: 'medium',
        category,
        evidence: outcome.offenders.unsafeInline.join('; '),
        description:
          "The policy lets scripts run from 'unsafe-inline', data: URLs or any site (a bare scheme or *), or leaves plugins (object-src) unrestricted. An attacker who can inject markup can then run scripts as if the policy were not there.",
        recommendation:
          "Remove 'unsafe-inline' and data: from script-src (move inline scripts to files, or allow them with nonces or hashes), replace broad sources like https: or * with the exact hosts you use, and set object-src 'none'. Rated medium: the policy no longer stops cross-site scripting.",
      }),
    );
  }
  if (outcome.policy?.unsafeEval) {
    findings.push(
      finding({
        id: 'http.csp.unsafe-eval',
        title: "Content Security Policy allows 'unsafe-eval'",
        severity: 'low',
        category,
        evidence: outcome.offenders.unsafeEval.join('; '),
        description:
          "'unsafe-eval' lets scripts turn text into code (eval, new Function, string timers). Injected data can then become running code through scripts that are already allowed.",
        recommendation:
          "Remove eval-style calls from your scripts (or update the library that needs them), then remove 'unsafe-eval'. Rated low: it widens an attack that needs another flaw first.",
      }),
    );
  }
  if (outcome.policy?.insecureSchemeActive) {
    findings.push(
      finding({
        id: 'http.csp.insecure-sources',
        title: 'Content Security Policy allows scripts or other active content over plain HTTP',
        severity: 'medium',
        category,
        evidence: `HTTP sources in the policy of an HTTPS site: ${outcome.offenders.insecureActive.join(' ')}`,
        description:
          'The policy of this HTTPS site allows resources from http: addresses. Anyone on the network path (public Wi-Fi, a compromised router) can replace such a script and take over the page.',
        recommendation: 'Load every resource over HTTPS and replace http: sources in the policy with their https: equivalents. Rated medium: it undoes the protection HTTPS gives the page.',
      }),
    );
  } else if (outcome.policy?.insecureSchemePassive) {
    findings.push(
      finding({
        id: 'http.csp.insecure-passive-sources',
        title: 'Content Security Policy allows images or media over plain HTTP',
        severity: 'low',
        category,
        evidence: `HTTP sources for img-src/media-src: ${outcome.offenders.insecurePassive.join(' ')}`,
        description: 'Images or media may be loaded over unencrypted HTTP, where they can be watched or swapped on the way.',
        recommendation: 'Serve images and media over HTTPS and use https: sources in img-src and media-src. Rated low: passive content cannot run code.',
      }),
    );
  }
  return findings;
}

/**
 * The "wordpress" check: is the site WordPress, which version (every source kept, one chosen with
 * a confidence), which plugins and themes the page loads (with their readme.txt Stable tag and
 * style.css Version), and the exposures WordPress is known for: REST user enumeration, xmlrpc.php, a
 * listed uploads folder, a public debug.log, readme.html. Probe: ./wordpress/wordpress.probe.ts.
 * Analysis: pure, below and in ./wordpress/. The CVEs of the core version (data.version) and of the
 * plugins and themes (data.plugins, data.themes) are the software check's findings.
 */
import type { Finding } from '../../domain/audit.js';
import type { CheckDefinition, CheckOutput } from '../check.js';
import type { FetchFailure, Sample } from './exposure/fetcher.js';
import { unansweredCause, unansweredParts } from './exposure/unanswered.js';
import { parseDirectoryListing, sensitiveEntries } from './exposure/listing.js';
import { wordpressAssets } from './wordpress/assets.js';
import {
  debugLogFindings,
  pluginFindings,
  readmeFindings,
  uploadsListingFindings,
  userEnumerationFindings,
  versionDisclosedFindings,
  xmlrpcFindings,
} from './wordpress/findings.js';
import { type Plugin, pluginVersion, readmeName, readmeStableTag, seenPlugins, seenThemes, type Theme, themeStyle, themeVersion } from './wordpress/plugins.js';
import { debugLog, isXmlRpcAnswer } from './wordpress/signatures.js';
import { restUsers, type WordPressUser } from './wordpress/users.js';
import { chooseVersion, coreAssetVersion, feedVersion, generatorVersion, isWordPressReadme, opmlVersion, readmeVersion, type VersionSource } from './wordpress/version.js';
import { probeWordPress, type WordPressProbe } from './wordpress/wordpress.probe.js';

export type { WordPressProbe } from './wordpress/wordpress.probe.js';
export type { Plugin, Theme } from './wordpress/plugins.js';
export type { VersionConfidence, VersionSource } from './wordpress/version.js';
export type { WordPressUser } from './wordpress/users.js';

const BUDGET_MS = 12_000;

function ok(sample: Sample | null): sample is Sample {
  return sample !== null && sample.status >= 200 && sample.status <= 299;
}

/** Every version source that answered, in a fixed order (the page first). */
export function versionSources(probe: WordPressProbe): VersionSource[] {
  const { landing } = probe;
  return [
    generatorVersion(landing.body),
    ok(probe.feed) ? feedVersion(probe.feed.body) : null,
    ok(probe.opml) ? opmlVersion(probe.opml.body) : null,
    ok(probe.readme) ? readmeVersion(probe.readme.body) : null,
    coreAssetVersion(wordpressAssets(landing.body, landing.url)),
  ].filter((source): source is VersionSource => source !== null);
}

/** The users the first endpoint that listed any gave, and that endpoint. */
export function enumeratedUsers(probe: Pick<WordPressProbe, 'users'>): { users: WordPressUser[]; endpoint: string | null } {
  for (const attempt of probe.users) {
    if (attempt.status < 200 || attempt.status > 299) continue;
    const users = restUsers(attempt.body);
    if (users.length > 0) return { users, endpoint: attempt.path };
  }
  return { users: [], endpoint: null };
}

/** Analyze: version, users, plugins and exposures into findings and the check's data. */
export function analyzeWordPress(probe: WordPressProbe): CheckOutput {
  // A 429, a 5xx, a challenge or no answer is not the site's answer: those files are not checked (not "not exposed").
  const asked: (Sample | FetchFailure)[] = [
    ...[probe.feed, probe.opml, probe.readme, probe.xmlrpc, probe.uploads, probe.debugLog, ...Object.values(probe.pluginReadmes), ...Object.values(probe.themeStyles)].filter((s): s is Sample => s !== null),
    ...probe.users.map(({ path, status, body }) => ({ path, url: path, status, headers: {}, body, bytes: body.length, truncated: false, redirects: [] })),
    ...probe.failures,
  ];
  const unanswered = unansweredParts('WordPress files', asked, asked.length);
  const seen = (sample: Sample | null) => (sample && unansweredCause(sample) === null ? sample : null);
  probe = {
    ...probe,
    feed: seen(probe.feed),
    opml: seen(probe.opml),
    readme: seen(probe.readme),
    xmlrpc: seen(probe.xmlrpc),
    uploads: seen(probe.uploads),
    debugLog: seen(probe.debugLog),
    pluginReadmes: Object.fromEntries(Object.entries(probe.pluginReadmes).map(([slug, sample]) => [slug, seen(sample)])),
    themeStyles: Object.fromEntries(Object.entries(probe.themeStyles).map(([slug, sample]) => [slug, seen(sample)])),
  };
  const { detection } = probe;
  const measured = {
    checked: probe.sent,
    incomplete: probe.incomplete,
    failures: probe.failures.map(({ path, error }) => ({ path, error })),
    ...(unanswered.length > 0 ? { notChecked: unanswered } : {}),
  };
  if (!detection.detected) return { findings: [], data: { detected: false, url: probe.landing.url, ...measured } };

  const assets = wordpressAssets(probe.landing.body, probe.landing.url);
  const sources = versionSources(probe);
  const { version, confidence } = chooseVersion(sources);
  const { users, endpoint } = enumeratedUsers(probe);
  const xmlrpc = probe.xmlrpc ? { enabled: isXmlRpcAnswer(probe.xmlrpc.body), status: probe.xmlrpc.status } : null;
  const uploadsPath = `${detection.basePath}wp-content/uploads/`;
  const uploads = ok(probe.uploads) ? parseDirectoryListing(probe.uploads.body, uploadsPath) : null;
  const readme = ok(probe.readme) && isWordPressReadme(probe.readme.body) ? probe.readme : null;
  const readmeSource = sources.find((source) => source.source === 'readme');
  const log = ok(probe.debugLog) ? debugLog(probe.debugLog.body) : null;
  const plugins: Plugin[] = seenPlugins(assets, version).map((seen) => {
    const answer = probe.pluginReadmes[seen.slug] ?? null;
    return ok(answer) ? pluginVersion(seen, readmeStableTag(answer.body), readmeName(answer.body)) : pluginVersion(seen, null);
  });
  const themes: Theme[] = seenThemes(assets, version).map((seen) => {
    const answer = probe.themeStyles[seen.slug] ?? null;
    return themeVersion(seen, ok(answer) ? themeStyle(answer.body) : null);
  });

  const findings: Finding[] = [
    ...versionDisclosedFindings(sources, version),
    ...userEnumerationFindings(users, endpoint),
    ...xmlrpcFindings(xmlrpc?.enabled === true, probe.xmlrpc?.path ?? `${detection.basePath}xmlrpc.php`),
    ...(uploads ? uploadsListingFindings(uploadsPath, uploads.entries, sensitiveEntries(uploads)) : []),
    ...(log && probe.debugLog ? debugLogFindings(probe.debugLog.path, log, probe.debugLog.bytes) : []),
    ...(readme ? readmeFindings(readme.path, readmeSource?.version ?? null) : []),
    ...pluginFindings(plugins),
  ];
  return {
    findings,
    data: {
      detected: true,
      url: probe.landing.url,
      signals: detection.signals,
      basePath: detection.basePath,
      ...(detection.restRoot ? { restRoot: detection.restRoot } : {}),
      version,
      versionConfidence: confidence,
      versionSources: sources.map(({ source, version: v, evidence }) => ({ source, version: v, ...(evidence ? { evidence } : {}) })),
      users: users.map(({ id, slug, name }) => ({ id, slug, name })),
      usersEndpoint: endpoint,
      usersTried: probe.users.map(({ path, status }) => ({ path, status })),
      xmlrpc,
      // null: the request got no answer, so nothing is known.
      uploadsListing: probe.uploads ? uploads !== null : null,
      readmeExposed: probe.readme ? readme !== null : null,
      debugLogExposed: probe.debugLog ? log !== null : null,
      plugins,
      themes,
      pluginVulnerabilities: 'software-check',
      ...measured,
    },
  };
}

/**
 * The "wordpress" check. Needs ctx.net.http (the scan's guarded client). data: { detected, url,
 * signals, basePath, version, versionConfidence, versionSources: [{source, version, evidence}],
 * users: [{id, slug, name}], usersEndpoint, xmlrpc: {enabled, status} | null, uploadsListing,
 * readmeExposed, debugLogExposed, plugins: [{slug, version, source, name?}], themes: [{slug, version,
 * source, name?}], pluginVulnerabilities: 'software-check' (the software check matches plugins and
 * themes to CVEs), checked, incomplete, failures }; when the site is not WordPress: { detected:
 * false, url, checked, … } and no findings.
 */
export const wordpressCheck: CheckDefinition = {
  name: 'wordpress',
  budgetMs: BUDGET_MS,
  needsAddress: true,
  readsPages: true,
  // Its probes (REST user enumeration, xmlrpc.php, uploads, debug.log, readme.html) are paths no page loads.
  passive: 'skipped',
  run: async ({ target, domain, net, signal }) => analyzeWordPress(await probeWordPress({ client: net.http, target, domain, signal, budgetMs: BUDGET_MS })),
};

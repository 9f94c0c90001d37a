import type { Deps } from '../composition.js';
import {
  BADGE_DEFAULTS,
  type BadgeEligibilityInput,
  badgeEligibility,
  badgeQuerySchema,
  badgeReasons,
  badgeStatus,
  badgeUrl,
  renderBadgeSvg,
  verifyUrl,
} from '../domain/badge.js';
import { parseContract } from '../domain/contract.js';
import { parseDomainInput } from '../domain/domains.js';
import { NotFoundError } from '../domain/errors.js';
import type { BadgeStatusView, MyBadgeView } from '../domain/monitoring.contract.js';
import type { SiteScan } from '../domain/ports.js';
import { siteKey } from '../domain/target.js';

/**
 * The 'Protected by' badge from real data (issue 8; DECISIONS "Badge and verify", "Badge
 * eligibility"; the rules and the drawing are lambdas/domain/badge.ts):
 * - verified: some user has proven they own the domain (DNS or file); they are its owners;
 * - the latest completed scan of the site's landing URL made by one of its owners (their lead, Quick
 *   Scan or monitoring rescan; DECISIONS "Who speaks for a site"): a stranger's lead, or a scan of
 *   some deep path, never speaks for the site; of the owners' scans the badge states what was last
 *   measured, never an older, better result. Bounded reads: the owners' own index entries only;
 * - entitlement: an owner's subscription in status `active`, or an owner's paid audit of the site
 *   whose badge window is still open.
 * Publicly the status says no more than the badge shows: a grade and score only when eligible, and
 * for a domain nobody verified nothing about its scans at all (a stranger's free scan stays private).
 */

type BadgeDeps = Pick<Deps, 'domains' | 'audits' | 'accounts' | 'clock' | 'config'>;
/** What the eligibility facts are read from (no configuration: nothing is drawn). */
type FactDeps = Omit<BadgeDeps, 'config'>;

interface SiteFacts {
  owners: string[];
  latest: SiteScan | undefined;
  input: BadgeEligibilityInput;
}

async function entitlementOf(deps: FactDeps, site: string, owners: readonly string[], now: Date): Promise<BadgeEligibilityInput['entitlement']> {
  if (owners.length === 0) return { activeSubscription: false };
  const [subscriptions, windows] = await Promise.all([
    Promise.all(owners.map((userId) => deps.accounts.getSubscription(userId))),
    deps.audits.badgeWindowsOfSite(site, owners, now.toISOString()),
  ]);
  const until = windows
    .filter((window) => owners.includes(window.ownerId))
    .map((window) => window.until)
    .sort()
    .at(-1);
  return { activeSubscription: subscriptions.some((subscription) => subscription?.status === 'active'), ...(until ? { paidAuditEligibleUntil: until } : {}) };
}

/**
 * The one eligibility rule's facts (badge, /verify, the dashboard's badges and audit history): the
 * site's verified owners (or, for a domain the caller has not verified yet, the caller alone), their
 * latest landing scan and their entitlement.
 */
async function factsFor(deps: FactDeps, site: string, owners: string[], domainVerified: boolean): Promise<SiteFacts> {
  const now = deps.clock.now();
  const [[latest], entitlement] = await Promise.all([deps.audits.ownerLandingScans(site, owners, 1), entitlementOf(deps, site, owners, now)]);
  return {
    owners,
    latest,
    input: {
      domainVerified,
      ...(latest ? { latestScan: { score: latest.score, grade: latest.grade, completedAt: latest.completedAt } } : {}),
      entitlement,
      now,
    },
  };
}

async function siteFacts(deps: FactDeps, site: string): Promise<SiteFacts> {
  const owners = await deps.domains.verifiersOf(site);
  return factsFor(deps, site, owners, owners.length > 0);
}

function publicView(site: string, facts: SiteFacts): BadgeStatusView {
  if (!facts.input.domainVerified) {
    return { domain: site, verified: false, eligible: false, grade: null, score: null, lastScan: null, reasons: [badgeReasons.notVerified] };
  }
  const { eligible, reasons } = badgeEligibility(facts.input);
  return {
    domain: site,
    verified: true,
    eligible,
    grade: eligible && facts.latest ? facts.latest.grade : null,
    score: eligible && facts.latest ? facts.latest.score : null,
    lastScan: facts.latest?.completedAt ?? null,
    reasons,
  };
}

/**
 * The audits that carry a live badge, for the audit history's `badgeEligible`: of the caller's
 * verified domains among `audits`, those whose badge is eligible now (the public badge's facts and
 * rule), each naming the latest completed scan the badge states. One look-up per distinct domain,
 * however many entries it has; the caller's unverified domains and others' cost nothing.
 */
export async function auditsBehindEligibleBadges(deps: FactDeps, userId: string, audits: readonly { host: string }[]): Promise<Set<string>> {
  const sites = new Set(audits.map((audit) => siteKey(audit.host)));
  if (sites.size === 0) return new Set();
  const verified = (await deps.domains.list(userId)).filter((record) => record.verified && sites.has(record.domain));
  const backing = await Promise.all(
    verified.map(async (record) => {
      const facts = await siteFacts(deps, record.domain);
      return badgeEligibility(facts.input).eligible ? facts.latest?.auditId : undefined;
    }),
  );
  return new Set(backing.filter((id): id is string => id !== undefined));
}

/** The path's domain (already URL-decoded by the platform: decoding again threw on a '%'), by parseDomainInput's rules, as its site key. */
function domainParam(raw: string | undefined): string {
  return parseDomainInput(raw ?? '');
}

/** `GET /api/badges/{domain}`: what the public /verify/{domain} page states. */
export async function badgeStatusOf(deps: BadgeDeps, rawDomain: string | undefined): Promise<BadgeStatusView> {
  const site = domainParam(rawDomain);
  return publicView(site, await siteFacts(deps, site));
}

/**
 * `GET /badge/{domain}.svg?theme&size&style`: the badge, the grade only when eligible, else the neutral
 * 'not verified' badge (also for a domain Rampart has never heard of). Bad options are a ValidationError.
 */
export async function badgeSvg(deps: BadgeDeps, rawFile: string | undefined, query: unknown): Promise<string> {
  const file = rawFile ?? '';
  if (!file.toLowerCase().endsWith('.svg')) throw new NotFoundError('badge_not_found', 'Badges are served as /badge/{domain}.svg');
  const options = parseContract(badgeQuerySchema, query ?? {});
  const site = parseDomainInput(file.slice(0, -'.svg'.length));
  const facts = await siteFacts(deps, site);
  return renderBadgeSvg({ productName: deps.config.PRODUCT_NAME, domain: site, status: badgeStatus(facts.input), ...options });
}

/**
 * `GET /api/me/badges`: each of the caller's domains with its badge state and the documented URLs.
 * A domain the caller verified shows what the public badge shows, plus its latest score and grade
 * (the owner may see them); one not yet verified shows the caller's own scans and what is missing.
 */
export async function myBadges(deps: BadgeDeps, userId: string): Promise<{ badges: MyBadgeView[] }> {
  const siteUrl = deps.config.SITE_URL;
  const badges = await Promise.all(
    (await deps.domains.list(userId)).map(async (record): Promise<MyBadgeView> => {
      const urls = { badgeUrl: badgeUrl({ siteUrl, domain: record.domain, ...BADGE_DEFAULTS }), verifyUrl: verifyUrl({ siteUrl, domain: record.domain }) };
      if (record.verified) {
        const facts = await siteFacts(deps, record.domain);
        const view = publicView(record.domain, facts);
        return { ...view, grade: facts.latest?.grade ?? null, score: facts.latest?.score ?? null, ...urls };
      }
      const facts = await factsFor(deps, record.domain, [userId], false);
      const own = facts.latest;
      const { eligible, reasons } = badgeEligibility(facts.input);
      return { domain: record.domain, verified: false, eligible, grade: own?.grade ?? null, score: own?.score ?? null, lastScan: own?.completedAt ?? null, reasons, ...urls };
    }),
  );
  return { badges };
}

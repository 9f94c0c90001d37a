import { getPlan, plans } from './catalogue';
import type { Audit, AuditResultView, SubscriptionView } from './contracts';

/**
 * Who is looking at a report, as far as the paid audit offer cares: nobody signed in, a signed-in
 * viewer whose `GET /api/me` has not answered yet, or one with their subscription (none: the API could not say).
 */
export type OfferViewer = { kind: 'anonymous' } | { kind: 'loading' } | { kind: 'signed-in'; subscription?: SubscriptionView };

export type PaidAuditOfferDecision =
  | { show: false; reason: 'not-finished' | 'sample' | 'blocked' | 'no-issues' | 'paid-audit' | 'deep-report' | 'deep-scan-included' | 'viewer-unknown' }
  | {
      show: true;
      /** 'This free report found 3 issues. A paid audit …' */
      lead: string;
      /** For a subscriber on a plan without the deep scan: what the plan already does, so the offer says what the audit adds to it. */
      planNote?: string;
    };

/** An active monthly plan, by its tier (the trial and lapsed plans are not one). */
function activeSubscriptionPlan(subscription: SubscriptionView) {
  return subscription.status === 'active' ? storedPlan(subscription) : undefined;
}

/** The monthly plan the view was written from (its scansLimit is that plan's, plus pack scans, whatever its status). */
function storedPlan(subscription: SubscriptionView) {
  if (subscription.billingPeriod !== 'monthly') return undefined;
  return plans.find((plan) => plan.kind === 'subscription' && plan.tier === subscription.tier);
}

/**
 * DECISIONS "Scan counting": whether the viewer can already run a deep scan — an active plan whose
 * grants scan deep, or scan-pack scans left (drawn after the plan's own; every pack's scan is deep).
 */
export function viewerHasDeepScan(subscription: SubscriptionView): boolean {
  const plan = activeSubscriptionPlan(subscription);
  if (plan?.grants.scanDepth === 'deep') return true;
  const ownScans = (storedPlan(subscription) ?? getPlan('trial')).scansLimit ?? 0;
  const packScans = subscription.scansLimit - ownScans;
  const scansLeft = subscription.scansLimit - subscription.scansUsed;
  const packScanIsDeep = plans.some((candidate) => candidate.kind === 'scan-pack' && candidate.grants.scanDepth === 'deep');
  return packScanIsDeep && packScans > 0 && scansLeft > 0;
}

const isPremium = (audit: Pick<Audit, 'isPremium'>, result: Pick<AuditResultView, 'is_premium' | 'plan_type'>) =>
  result.is_premium === true || Boolean(result.plan_type) || audit.isPremium === true;

/**
 * Issue 29 item 3, DECISIONS "What paid audits add": the paid audit is offered on a finished report
 * that found issues (not a sample, not a blocked site, not one already bought), and only to a viewer
 * who cannot already run the deep scan it sells. Only a report an anonymous visitor reads is called
 * "this free report": a signed-in viewer's may be their plan's Quick Scan, and a monitoring re-scan says so.
 */
export function paidAuditOfferFor(
  audit: Pick<Audit, 'status' | 'isPremium' | 'origin' | 'depth'>,
  result: Pick<AuditResultView, 'sample' | 'site_access' | 'counters' | 'is_premium' | 'plan_type'>,
  viewer: OfferViewer,
): PaidAuditOfferDecision {
  if (audit.status !== 'completed') return { show: false, reason: 'not-finished' };
  if (result.sample) return { show: false, reason: 'sample' };
  // A site that kept the scanner out would keep the paid audit out too: no audit is sold that cannot see the site.
  if (result.site_access) return { show: false, reason: 'blocked' };
  const issues = result.counters.totalIssues;
  if (issues <= 0) return { show: false, reason: 'no-issues' };
  if (isPremium(audit, result)) return { show: false, reason: 'paid-audit' };
  // A scan-pack scan already went deep: the audit would sell the same scan again.
  if (audit.depth === 'deep') return { show: false, reason: 'deep-report' };
  if (viewer.kind === 'loading') return { show: false, reason: 'viewer-unknown' };
  if (viewer.kind === 'signed-in' && viewer.subscription && viewerHasDeepScan(viewer.subscription)) return { show: false, reason: 'deep-scan-included' };

  const report = audit.origin === 'monitoring' ? 'This monitoring re-scan' : viewer.kind === 'anonymous' ? 'This free report' : 'This report';
  const lead = `${report} found ${issues} ${issues === 1 ? 'issue' : 'issues'}. A paid audit scans this site in depth and tells you how to fix what it finds.`;
  const plan = viewer.kind === 'signed-in' && viewer.subscription ? activeSubscriptionPlan(viewer.subscription) : undefined;
  if (!plan) return { show: true, lead };
  const { portsChecked, subdomainsChecked } = plan.grants;
  const reach = subdomainsChecked === 0 ? 'the site itself' : `the site and up to ${subdomainsChecked} subdomains`;
  return {
    show: true,
    lead,
    planNote: `Your ${plan.name} plan scans the ${portsChecked.toLocaleString('en-AU')} most common ports of ${reach}; a paid audit adds the deep scan below, and your subscriber discount is applied at checkout.`,
  };
}

import type { Deps } from '../composition.js';
import { rescanTarget } from '../domain/rescan-target.js';
import { landingLoaded } from '../domain/scan-site.js';
import { siteKey } from '../domain/target.js';

/** How many of the customer's latest completed scans are read for one that loaded the site. */
const SCANS_READ = 5;

/**
 * DECISIONS "Rescan target": the URL a scan of one of the customer's domains starts at (monitoring
 * rescans, Quick Scan, `/api/v1` scans): where the customer's last completed scan of that domain
 * reached after its redirects (lambdas/domain/rescan-target.ts), `https://{domain}/` without one.
 * A scan that did not load the landing page (an outage, a block) reached nothing: the one before it
 * that did still says where the site is, so one bad day does not send an http-only site's rescans to https://.
 */
export async function rescanTargetOf(deps: Pick<Deps, 'audits'>, ownerId: string, domain: string): Promise<string> {
  for (const scan of await deps.audits.completedScansOfSite(siteKey(domain), { ownerId, limit: SCANS_READ })) {
    const audit = await deps.audits.getAudit(scan.auditId);
    if (audit?.status === 'completed' && landingLoaded(audit.checks)) return rescanTarget(domain, audit);
  }
  return rescanTarget(domain);
}

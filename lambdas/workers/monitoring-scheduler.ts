import type { Deps } from '../composition/core.js';
import { knowledgeBaseFingerprint, matchVulnerabilities } from '../scanner/vulndb/index.js';
import { checkKevUpdatesOnce, scheduleMonitoringRescans, sendWaitingAlerts } from '../use-cases/monitoring.js';
import { sendMonthlyReports } from '../use-cases/monthly-reports.js';

/**
 * Scheduled (EventBridge on AWS, a timer locally): queues the subscribers' rescans that are due,
 * sends alerts that waited for their domain's hourly limit, checks a new knowledge base (once
 * per bundled version) for newly exploited CVEs in the software monitored sites run, and once a
 * calendar month has ended builds and emails each subscriber's monthly report of it (once each).
 */
export function make(deps: Deps) {
  return async () => {
    const { queued } = await scheduleMonitoringRescans(deps, deps.clock.now());
    const alertsSent = await sendWaitingAlerts(deps);
    const kev = await checkKevUpdatesOnce(deps, knowledgeBaseFingerprint(), matchVulnerabilities);
    const monthly = await sendMonthlyReports(deps, deps.clock.now());
    return { rescansQueued: queued.length, alertsSent, knowledgeBaseChecked: kev !== undefined, monthlyReportsSent: monthly.emailed };
  };
}

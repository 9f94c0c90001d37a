import { loadConfig } from '../config.js';
import { buildDeps, type Deps } from '../composition.js';
import { knowledgeBaseFingerprint, matchVulnerabilities } from '../scanner/vulndb/index.js';
import { checkKevUpdatesOnce, scheduleMonitoringRescans, sendWaitingAlerts } from '../use-cases/monitoring.js';

/**
 * Scheduled (EventBridge on AWS, a timer locally): queues the subscribers' rescans that are due,
 * sends alerts that waited for their domain's hourly limit, and checks a new knowledge base (once
 * per bundled version) for newly exploited CVEs in the software monitored sites run.
 */
export function make(deps: Deps) {
  return async () => {
    const { queued } = await scheduleMonitoringRescans(deps, deps.clock.now());
    const alertsSent = await sendWaitingAlerts(deps);
    const kev = await checkKevUpdatesOnce(deps, knowledgeBaseFingerprint(), matchVulnerabilities);
    return { rescansQueued: queued.length, alertsSent, knowledgeBaseChecked: kev !== undefined };
  };
}

let scheduler: ReturnType<typeof make> | undefined;
export const handler = () => {
  scheduler ??= make(buildDeps(loadConfig(process.env, ['table', 'scanQueue', 'mailer', 'sms'])));
  return scheduler();
};

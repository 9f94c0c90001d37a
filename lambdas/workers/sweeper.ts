import { loadConfig } from '../config.js';
import { buildDeps, type Deps } from '../composition.js';
import { retryDueNotifications } from '../use-cases/notifications.js';
import { sweepStuckAudits } from '../use-cases/run-scan.js';

/**
 * Scheduled (EventBridge on AWS every 5 minutes, a timer locally): ends audits stuck past their limit
 * as failed, and retries the notifications in the outbox that are due (DECISIONS "Mail never fails a scan").
 */
export function make(deps: Deps) {
  return async () => {
    const endedAsFailed = await sweepStuckAudits(deps);
    return { endedAsFailed, notifications: await retryDueNotifications(deps) };
  };
}

let sweeper: ReturnType<typeof make> | undefined;
export const handler = () => {
  sweeper ??= make(buildDeps(loadConfig(process.env, ['table', 'mailer', 'sms'])));
  return sweeper();
};

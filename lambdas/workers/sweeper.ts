import type { Deps } from '../composition/core.js';
import { retryDueNotifications } from '../use-cases/notifications.js';
import { sweepStuckAudits } from '../use-cases/sweep.js';

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

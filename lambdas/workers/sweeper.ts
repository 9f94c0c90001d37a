import { loadConfig } from '../config.js';
import { buildDeps, type Deps } from '../composition.js';
import { sweepStuckAudits } from '../use-cases/run-scan.js';

/** Scheduled (EventBridge on AWS, a timer locally): ends audits stuck past their limit as failed. */
export function make(deps: Deps) {
  return async () => ({ endedAsFailed: await sweepStuckAudits(deps) });
}

let sweeper: ReturnType<typeof make> | undefined;
export const handler = () => {
  sweeper ??= make(buildDeps(loadConfig(process.env, ['table'])));
  return sweeper();
};

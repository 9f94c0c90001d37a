import { platformStats } from '../use-cases/platform-stats.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Counters change with each completed audit; a few minutes old is fresh enough for a dashboard card. */
const CACHE_CONTROL = 'public, max-age=300';

/** Rampart's own figures: audits completed, countries of leads (not recorded: null), measured average scan time. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async () => ({ status: 200, body: await platformStats(deps), headers: { 'cache-control': CACHE_CONTROL } }));


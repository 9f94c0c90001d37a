import { scannerInfo } from '../use-cases/scanner-identity.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The scanner's settings change only with a deploy: a few minutes old is fresh enough. */
const CACHE_CONTROL = 'public, max-age=300';

/** DECISIONS "Scanner identity": what the public /scanner page states (user agent, addresses, politeness, abuse address). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async () => ({ status: 200, body: scannerInfo(deps), headers: { 'cache-control': CACHE_CONTROL } }));

import { myBadges } from '../use-cases/badges.js';
import { userIdOf } from '../use-cases/domains.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The dashboard's badge page: each of the user's domains with its badge state, badge URL and verify URL. */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: await myBadges(deps, userIdOf(request.claims)) }));


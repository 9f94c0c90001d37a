import { listAccessLog } from '../use-cases/access-ends.js';
import { actingOf } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The organisation's access log, newest first: tokens made and revoked, members removed or left, providers unlinked (issue 28). */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: await listAccessLog(deps, actingOf(request.claims)) }));

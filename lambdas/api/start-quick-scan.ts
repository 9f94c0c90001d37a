import { startQuickScan, userIdOf } from '../use-cases/domains.js';
import { httpHandler, type HandlerFactory } from './http.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Quick Scan: one of the user's verified domains, counted against the plan; answers the audit id. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const claims = request.claims;
    const user = { userId: userIdOf(claims), email: text(claims?.email), firstName: text(claims?.given_name), lastName: text(claims?.family_name) };
    return { status: 201, body: await startQuickScan(deps, user, request.json()) };
  });


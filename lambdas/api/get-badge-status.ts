import { badgeStatusOf } from '../use-cases/badges.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The public /verify/{domain} page's data: verified, eligible, grade, score and last scan when public, and what is missing. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 200,
    body: await badgeStatusOf(deps, request.path('domain')),
    headers: { 'cache-control': 'public, max-age=300' },
  }));


import { addDomain, userIdOf } from '../use-cases/domains.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Adds a domain to verify: 201 with its token and both ways to prove ownership. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const userId = userIdOf(request.claims);
    return { status: 201, body: { domain: await addDomain(deps, userId, request.json()) } };
  });


import { passwordBreachRange } from '../use-cases/password-breach-range.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A day: the range of a prefix changes only when Pwned Passwords adds a corpus. */
const CACHE_CONTROL = 'public, max-age=86400';

/** Known breached-password SHA-1 suffixes under a 5-character prefix (the sign-up form's k-anonymity check). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 200,
    body: await passwordBreachRange(deps, request.path('prefix')),
    headers: { 'cache-control': CACHE_CONTROL },
  }));


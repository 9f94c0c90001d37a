import { callerFrom } from '../use-cases/account.js';
import { putPolicy } from '../use-cases/security-policies.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Accepts or mutes a finding of one of the user's verified domains: 201 when new, 200 when it replaced one. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const caller = callerFrom(request.claims);
    const { policy, created } = await putPolicy(deps, caller, request.path('domain'), request.path('findingId'), request.json());
    return { status: created ? 201 : 200, body: { policy } };
  });


import { callerFrom, getAccountIn } from '../use-cases/account.js';
import { actingOf } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in person's profile (created on first read), the acting organisation's subscription, and their role in it. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const acting = actingOf(request.claims);
    const person = { ...callerFrom(request.claims), userId: acting.memberId };
    return { status: 200, body: { ...(await getAccountIn(deps, person, acting.orgId)), organisation: { id: acting.orgId, role: acting.role } } };
  });

import { callerFrom } from '../use-cases/account.js';
import { recordTokenEvent } from '../use-cases/access-ends.js';
import { createApiToken } from '../use-cases/api-tokens.js';
import { actingOf, personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A new personal API token (Monitor Plus): 201 with the secret, shown this once; its maker recorded and logged (issue 28). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const person = personFrom(request.claims);
    const created = await createApiToken(deps, callerFrom(request.claims), request.json(), person);
    await recordTokenEvent(deps, actingOf(request.claims), person.email, 'api-token-created', `${created.token.name} (${created.token.prefix}…)`);
    return { status: 201, body: created };
  });

import { UnauthorizedError } from '../domain/errors.js';
import { httpHandler, lambdaEntry, type HandlerFactory } from './http.js';

/** The signed-in user as the verified token names them. Accounts grow this (profile, plan). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const claims = request.claims;
    if (!claims || typeof claims.sub !== 'string') throw new UnauthorizedError();
    return {
      status: 200,
      body: {
        user: {
          id: claims.sub,
          email: typeof claims.email === 'string' ? claims.email : undefined,
          firstName: typeof claims.given_name === 'string' ? claims.given_name : undefined,
          lastName: typeof claims.family_name === 'string' ? claims.family_name : undefined,
        },
      },
    };
  });

export const handler = lambdaEntry('get-me', make);

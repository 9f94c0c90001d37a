import { submitAgentTelemetry } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** An installer's progress or failure (SPEC §7 install telemetry), with the enrollment secret. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 200,
    body: await submitAgentTelemetry(deps, { authorization: request.header('authorization'), body: request.json() }),
  }));


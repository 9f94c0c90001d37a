import { callerFrom } from '../use-cases/account.js';
import { listMonthlyReports } from '../use-cases/monthly-reports.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in user's monthly reports, newest month first. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listMonthlyReports(deps, callerFrom(request.claims)) }));


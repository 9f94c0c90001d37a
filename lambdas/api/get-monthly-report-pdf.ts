import { callerFrom } from '../use-cases/account.js';
import { monthlyReportPdf } from '../use-cases/monthly-reports.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in user's own monthly report PDF (`{yyyy-mm}.pdf`); anyone else's month is a 404. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const report = await monthlyReportPdf(deps, callerFrom(request.claims), request.path('reportFile'));
    return {
      status: 200,
      binary: report.bytes,
      headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${report.fileName}"` },
    };
  });


import { callerFrom } from '../use-cases/account.js';
import { agentInstaller } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** `/agents/{product}-osquery-installer.bat|sh?domain=`: the installer with the account's secret, saved under the domain's name. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const installer = await agentInstaller(deps, callerFrom(request.claims), request.path('installerFile'), request.event.queryStringParameters);
    return {
      status: 200,
      text: installer.text,
      headers: {
        'content-type': installer.contentType,
        'content-disposition': `attachment; filename="${installer.fileName}"`,
        'x-content-type-options': 'nosniff',
      },
    };
  });


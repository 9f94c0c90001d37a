/**
 * The local HTTP server: mounts every route of the manifest on the same handlers the Lambdas run,
 * with API Gateway v2-shaped events, verifies Cognito tokens for `user` routes as API Gateway's JWT
 * authorizer does (with the handlers' own verifier, `deps.userTokens`, which also serves the public
 * routes' optional tokens), and serves the built frontend with the site's security headers.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { ApiEvent, ApiHandler } from '../../lambdas/api/http.js';
import type { Deps } from '../../lambdas/composition.js';
import { isBotUserAgent } from '../../lambdas/domain/bots.js';
import { reportPdfApiPath } from '../../lambdas/domain/report.contract.js';
import { bearerToken } from '../../lambdas/domain/user-tokens.js';
import { routes, type RouteDefinition } from '../../lambdas/routes.js';
import { localPageSecurityHeaders, siteSecurityHeaders } from '../../lib/site/security-headers.js';
import { API_PATH_PREFIXES, isAppPagePath } from '../../lib/site/viewer-request-function.js';
import type { OutboxSms } from '../../lambdas/adapters/sms.adapter.js';
import { LOCAL_COGNITO_PROXY_PATH, RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../../lambdas/domain/runtime-config.js';
import { localPaymentPages } from './test-payments.js';

export interface LocalServerOptions {
  deps: Deps;
  staticDir: string;
  cognito: { endpoint: string; userPoolId: string; clientId: string };
  /** DECISIONS "Demo account": shown on the login page when DEMO_MODE=1. */
  demo?: { email: string; password: string };
  outbox?: OutboxSms;
}

interface MountedRoute {
  route: RouteDefinition;
  pattern: RegExp;
  params: string[];
  handler: ApiHandler;
}

const MAX_BODY_BYTES = 64 * 1024;

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

async function mountRoutes(deps: Deps): Promise<MountedRoute[]> {
  return Promise.all(
    routes.map(async (route) => {
      const mod = (await import(`../../lambdas/api/${route.name}.ts`)) as { make: (deps: Deps) => ApiHandler };
      const params: string[] = [];
      const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
        params.push(name);
        return '([^/]+)';
      });
      return { route, pattern: new RegExp(`^${source}$`), params, handler: mod.make(deps) };
    }),
  );
}

function send(res: ServerResponse, status: number, headers: Record<string, string | number>, body?: string | Buffer) {
  res.writeHead(status, { ...siteSecurityHeaders, ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  send(res, status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, JSON.stringify(body));
}

/**
 * The body, or 'too_large' once it has all arrived: a body past the limit is read to its end and
 * dropped rather than left unread, because leaving the loop early destroyed the socket and the
 * client saw a connection reset instead of the 413 (test/hardening/bad-input.test.ts).
 */
function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBytes ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** decodeURIComponent, or undefined for a malformed escape (`%`, `%E0%A4%A`, an encoded lone surrogate). */
function decodePath(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

const INVALID_PATH = { error: 'invalid_path', message: 'The address holds a malformed percent-encoding.' } as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startLocalServer(options: LocalServerOptions, port: number, host: string): Promise<Server> {
  const mounted = await mountRoutes(options.deps);
  // The local test checkout delivers its signed events to this server's own webhook route.
  const payments = localPaymentPages(options.deps, () => `http://${host.includes(':') ? `[${host}]` : host}:${port}`, send);
  const { endpoint, userPoolId, clientId } = options.cognito;

  async function verifyToken(authorization: string | undefined) {
    const token = bearerToken(authorization);
    return token ? options.deps.userTokens.verify(token) : undefined;
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = req.method ?? 'GET';
    const candidates = mounted.filter((m) => m.pattern.test(url.pathname));
    if (candidates.length === 0) return sendJson(res, 404, { error: 'route_not_found', message: `No API route at ${url.pathname}` });
    const match = candidates.find((m) => m.route.method === method);
    if (!match) {
      res.setHeader('allow', candidates.map((m) => m.route.method).join(', '));
      return sendJson(res, 405, { error: 'method_not_allowed', message: `${method} is not allowed on ${url.pathname}` });
    }
    // A route that reads more (an agent's report) says so in the manifest; its handler judges the size itself.
    const maxBytes = (match.route as RouteDefinition).maxBodyBytes ?? MAX_BODY_BYTES;
    const body = await readBody(req, maxBytes);
    if (body === 'too_large') return sendJson(res, 413, { error: 'payload_too_large', message: `The request body is larger than ${maxBytes / 1024} KiB.` });

    let claims: Record<string, string | number | boolean | string[]> | undefined;
    if (match.route.auth === 'user') {
      claims = await verifyToken(req.headers.authorization);
      if (!claims) return sendJson(res, 401, { error: 'unauthorized', message: 'Sign in to continue.' });
    }
    const values = match.pattern.exec(url.pathname)!.slice(1).map(decodePath);
    if (values.some((value) => value === undefined)) return sendJson(res, 400, INVALID_PATH);
    const pathParameters = Object.fromEntries(match.params.map((name, i) => [name, values[i]!]));
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : (v ?? '')]),
    );
    const event: ApiEvent = {
      version: '2.0',
      routeKey: `${match.route.method} ${match.route.path}`,
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      headers,
      queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
      pathParameters: match.params.length > 0 ? pathParameters : undefined,
      body: body.length > 0 ? body.toString('utf8') : undefined,
      isBase64Encoded: false,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: url.host,
        domainPrefix: 'local',
        http: {
          method,
          path: url.pathname,
          protocol: `HTTP/${req.httpVersion}`,
          sourceIp: req.socket.remoteAddress ?? '',
          userAgent: headers['user-agent'] ?? '',
        },
        requestId: randomUUID(),
        routeKey: `${match.route.method} ${match.route.path}`,
        stage: '$default',
        time: new Date().toUTCString(),
        timeEpoch: Date.now(),
        ...(claims ? { authorizer: { jwt: { claims, scopes: [] } } } : {}),
      },
    };
    const result = await match.handler(event);
    const out = result.body ?? '';
    send(res, result.statusCode ?? 200, (result.headers ?? {}) as Record<string, string>, result.isBase64Encoded ? Buffer.from(out, 'base64') : out);
  }

  async function handleLocalPages(res: ServerResponse, url: URL) {
    const entries = options.outbox ? await options.outbox.list() : [];
    if (url.pathname === '/_local/outbox.json') return sendJson(res, 200, { messages: entries });
    const rows = entries
      .map((m) => `<tr><td>${escapeHtml(m.sentAt)}</td><td>${escapeHtml(m.to)}</td><td>${escapeHtml(m.body)}</td></tr>`)
      .join('');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SMS outbox (local)</title><link rel="icon" href="/favicon.svg"></head><body>
<h1>SMS outbox</h1><p>Local development: these messages were recorded instead of being sent by Amazon SNS.</p>
<table><thead><tr><th>Sent</th><th>To</th><th>Message</th></tr></thead><tbody>${rows || '<tr><td colspan="3">No messages yet</td></tr>'}</tbody></table></body></html>`;
    send(res, 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, html);
  }

  /** What the browser needs to sign in here: the local pool, reached through this origin. */
  function serveRuntimeConfig(res: ServerResponse, url: URL) {
    const config: RuntimeConfig = {
      auth: {
        userPoolId,
        userPoolClientId: clientId,
        userPoolEndpoint: `${url.origin}${LOCAL_COGNITO_PROXY_PATH}`,
        authFlowType: 'USER_PASSWORD_AUTH',
      },
      ...(options.demo ? { demo: options.demo } : {}),
    };
    sendJson(res, 200, config);
  }

  /**
   * cognito-local behind the site's origin, as Cognito's own endpoint is on AWS: the browser's
   * Amplify posts its JSON-RPC calls here and the CSP's connect-src stays 'self'.
   */
  async function proxyCognito(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method_not_allowed', message: 'Cognito calls are POSTs.' });
    const body = await readBody(req);
    if (body === 'too_large') return sendJson(res, 413, { error: 'payload_too_large', message: 'The request body is larger than 64 KiB.' });
    const forwarded: Record<string, string> = {};
    for (const name of ['content-type', 'x-amz-target', 'x-amz-user-agent', 'authorization']) {
      const value = req.headers[name];
      if (typeof value === 'string') forwarded[name] = value;
    }
    const upstream = await fetch(endpoint, { method: 'POST', headers: forwarded, body });
    const text = await upstream.text();
    send(res, upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/x-amz-json-1.1', 'cache-control': 'no-store' }, text);
  }

  function serveStatic(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(res, 405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }, 'Method not allowed');
    }
    const root = options.staticDir;
    // Bots get the static marketing page, as the CloudFront Function does on AWS.
    const wantsPage = isAppPagePath(url.pathname);
    let file: string;
    if (wantsPage && isBotUserAgent(req.headers['user-agent'])) {
      file = join(root, 'crawler.html');
    } else {
      const decoded = decodePath(url.pathname);
      if (decoded === undefined) return send(res, 400, { 'content-type': 'text/plain; charset=utf-8' }, 'Bad path');
      const requested = normalize(join(root, decoded));
      if (!requested.startsWith(root + sep) && requested !== root) return send(res, 400, { 'content-type': 'text/plain' }, 'Bad path');
      const isFile = existsSync(requested) && statSync(requested).isFile();
      if (!isFile && !wantsPage) return send(res, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'Not found');
      file = isFile ? requested : join(root, 'index.html');
    }
    if (!existsSync(file)) {
      return send(res, 503, { 'content-type': 'text/plain; charset=utf-8' }, 'The site has not been built: run npm run build.');
    }
    const hashed = url.pathname.startsWith('/assets/');
    res.writeHead(200, {
      ...localPageSecurityHeaders(url.pathname),
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  }

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    } catch {
      // A Host header no URL can hold ("a b", "["): answered, not thrown out of the listener (which ended the process).
      return sendJson(res, 400, { error: 'invalid_host', message: 'The Host header is not a valid host.' });
    }
    // DECISIONS "/reports": /reports/{auditId}.pdf is the PDF route (CloudFront rewrites it the same way).
    const pdfPath = reportPdfApiPath(url.pathname);
    if (pdfPath) url.pathname = pdfPath;
    // The API's paths, as CloudFront routes them to API Gateway (lib/site: `/api/*` and `/badge/*`).
    const work = API_PATH_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))
      ? handleApi(req, res, url)
      : url.pathname === RUNTIME_CONFIG_PATH
        ? Promise.resolve(serveRuntimeConfig(res, url))
      : url.pathname === LOCAL_COGNITO_PROXY_PATH || url.pathname === `${LOCAL_COGNITO_PROXY_PATH}/`
        ? proxyCognito(req, res)
      : url.pathname.startsWith('/_local/outbox')
        ? handleLocalPages(res, url)
      : url.pathname.startsWith('/_local/checkout/') || url.pathname.startsWith('/_local/billing-portal/')
        ? payments.handle(req, res, url)
        : Promise.resolve().then(() => serveStatic(req, res, url));
    work.catch((error: unknown) => {
      options.deps.log.error('Local server error', error as Error);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal_error', message: 'Something went wrong on our side. Please try again.' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

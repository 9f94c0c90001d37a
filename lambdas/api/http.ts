import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Deps } from '../composition/core.js';
import { ConflictError, DomainError, ForbiddenError, GoneError, NotFoundError, RateLimitedError, UpstreamUnavailableError, ValidationError } from '../domain/errors.js';
import { ORG_HEADER } from '../domain/organisation.contract.js';
import { bearerToken } from '../domain/user-tokens.js';
import { type RouteDefinition, routes } from '../routes.js';
import { requireTwoStep } from '../use-cases/two-step.js';

/**
 * The organisations use case (members, invitations and their emails) loads on the first request that
 * acts for an organisation, not at every function's cold start (a public route never needs it).
 */
const actingClaims: typeof import('../use-cases/organisations.js').actingClaims = async (...args) =>
  (await import('../use-cases/organisations.js')).actingClaims(...args);
import { isOriginVerified, ORIGIN_VERIFY_HEADER } from './origin-verify.js';

/** API Gateway HTTP API (payload 2.0) event; JWT claims present on `user` routes (set by the authorizer). */
export type ApiEvent = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & {
    authorizer?: { jwt?: { claims: Record<string, string | number | boolean | string[]>; scopes?: string[] } };
  };
};
export type ApiResult = APIGatewayProxyStructuredResultV2;
export type ApiHandler = (event: ApiEvent) => Promise<ApiResult>;

export interface ApiRequest {
  event: ApiEvent;
  /** The JSON body, parsed; a ValidationError when it is not JSON. */
  json(): unknown;
  /** The body exactly as it arrived (base64 undone), for signatures computed over the raw bytes. */
  rawBody(): string;
  path(name: string): string | undefined;
  header(name: string): string | undefined;
  sourceIp: string;
  userAgent: string;
  /** The verified token's claims: on `user` routes, and on `optionalAuth` routes when a valid token came. */
  claims: Record<string, unknown> | undefined;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A binary answer (a PDF): sent base64-encoded to API Gateway, with the content type in `headers`. */
  binary?: Uint8Array;
  /** A text answer sent as it is (an SVG badge, a small HTML page), with the content type in `headers`. */
  text?: string;
}

const MAX_BODY_BYTES = 64 * 1024;

/** Route keys with the body each route reads (routes.ts `maxBodyBytes`; the default elsewhere), so that json() agrees with the manifest and the local server. */
const bodyLimits = new Map<string, number>(
  (routes as readonly RouteDefinition[]).filter((route) => route.maxBodyBytes !== undefined).map((route) => [`${route.method} ${route.path}`, route.maxBodyBytes!] as const),
);

/** Maps a domain error code to its HTTP status: the one place that knows both. */
export function statusFor(error: DomainError): number {
  if (error instanceof ValidationError) return 400;
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof GoneError) return 410;
  if (error instanceof ConflictError) return 409;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof UpstreamUnavailableError) return 502;
  switch (error.code) {
    case 'invalid_json':
    case 'validation_failed':
      return 400;
    case 'unauthorized':
    case 'invalid_token':
      return 401;
    case 'payload_too_large':
      return 413;
    case 'config_invalid':
      return 500;
  }
  if (error.code.endsWith('_not_found')) return 404;
  if (error.code.endsWith('_forbidden') || error.code === 'verification_required' || error.code === 'target_not_allowed') return 403;
  if (error.code.endsWith('_conflict')) return 409;
  return 400;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode: status,
    // No body (a redirect, say): no content type to announce.
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), 'cache-control': 'no-store', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/** Turns an error into `{error, message}`: domain errors speak for themselves; anything else is logged, never shown. */
export function errorReply(error: unknown, deps: Pick<Deps, 'log'>): ApiResult {
  if (error instanceof DomainError && error.code !== 'config_invalid') {
    const body: Record<string, unknown> = { error: error.code, message: error.message };
    if (error instanceof ValidationError && Object.keys(error.fields).length > 0) body.fields = error.fields;
    const headers: Record<string, string> = {};
    if (error instanceof RateLimitedError) headers['retry-after'] = String(error.retryAfterSeconds);
    return json(statusFor(error), body, headers);
  }
  deps.log.error('Unhandled error in handler', error as Error);
  return json(500, { error: 'internal_error', message: 'Something went wrong on our side. Please try again.' });
}

/**
 * Route keys (`GET /api/audits/{auditId}`) of the public routes that read an optional token, with the
 * role a member needs to act for the organisation there ('' for none).
 */
const optionalAuthRouteKeys = new Map<string, RouteDefinition['role'] | ''>(
  (routes as readonly RouteDefinition[]).filter((route) => route.optionalAuth).map((route) => [`${route.method} ${route.path}`, route.role ?? ''] as const),
);

/**
 * A public route's signed-in caller acts for the organisation the header names when their role there
 * allows it (a member reading the organisation's report reads it as the owner does); otherwise they
 * are themselves, never refused: the route answers anyone.
 */
async function actingOrSelf(deps: Pick<Deps, 'organisations'>, claims: Record<string, unknown>, role: NonNullable<RouteDefinition['role']>, requestedOrg: string | undefined): Promise<Record<string, unknown>> {
  try {
    return await actingClaims(deps, claims, role, requestedOrg);
  } catch (error) {
    if (error instanceof ForbiddenError) return actingClaims(deps, claims, role, undefined);
    throw error;
  }
}

/**
 * The claims an `optionalAuth` route's handler sees: no authorizer runs before a public route, so a
 * Bearer token is verified here, in the Lambda (the same adapter the local server checks `user`
 * routes with). No token, or one that is not valid (expired, forged, another client's), is
 * anonymous: a public page must still load for it.
 */
async function optionalClaims(deps: Pick<Deps, 'userTokens'>, request: ApiRequest): Promise<Record<string, unknown> | undefined> {
  const token = bearerToken(request.header('authorization'));
  return token ? deps.userTokens.verify(token) : undefined;
}

function toRequest(event: ApiEvent): ApiRequest {
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const rawBody = () => {
    const raw = event.body ?? '';
    return event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  };
  return {
    event,
    rawBody,
    json() {
      const text = rawBody();
      const limit = bodyLimits.get(event.routeKey) ?? MAX_BODY_BYTES;
      if (Buffer.byteLength(text) > limit) {
        throw new DomainError('payload_too_large', `The request body is larger than ${limit / 1024} KiB.`);
      }
      if (text.trim() === '') throw new DomainError('invalid_json', 'The request body must be a JSON object.');
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new DomainError('invalid_json', 'The request body is not valid JSON.');
      }
    },
    path: (name) => event.pathParameters?.[name],
    header: (name) => headers[name.toLowerCase()],
    sourceIp: event.requestContext?.http?.sourceIp ?? '',
    userAgent: event.requestContext?.http?.userAgent ?? headers['user-agent'] ?? '',
    claims: event.requestContext?.authorizer?.jwt?.claims,
  };
}

/** Route keys of the routes that need two-step sign-in for whoever manages a team or clients (issue 28 item 12). */
const twoStepRouteKeys = new Set((routes as readonly RouteDefinition[]).filter((route) => route.twoStep).map((route) => `${route.method} ${route.path}`));

/** Route keys of the `user` routes, with the role each needs (none declared: the owner's). */
const userRouteRoles = new Map<string, NonNullable<RouteDefinition['role']>>(
  (routes as readonly RouteDefinition[]).filter((route) => route.auth === 'user').map((route) => [`${route.method} ${route.path}`, route.role ?? 'owner'] as const),
);

export type HandlerFactory = (deps: Deps) => ApiHandler;

const FORBIDDEN_ORIGIN = { error: 'forbidden_origin', message: 'The API answers only through the site.' } as const;

/**
 * With a secret (ORIGIN_VERIFY_SECRET, on AWS), refuses any request that does not carry it in
 * `x-origin-verify`, the header only CloudFront adds: the `execute-api` address answers 403 to
 * everyone else, so the site's response headers, caching and TLS policy cannot be bypassed.
 * Without a secret (locally, in tests) the handler is returned as it is.
 */
export function requireOrigin(secret: string | undefined, handler: ApiHandler): ApiHandler {
  if (!secret) return handler;
  return async (event) => {
    const presented = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === ORIGIN_VERIFY_HEADER)?.[1];
    return isOriginVerified(secret, presented) ? handler(event) : json(403, FORBIDDEN_ORIGIN);
  };
}

/** Wraps a use case as an HTTP handler: request in, `Reply` or domain error out. */
export function httpHandler(deps: Deps, run: (request: ApiRequest) => Promise<Reply>): ApiHandler {
  return async (event) => {
    try {
      const request = toRequest(event);
      // Teams: the organisation the request acts on and the caller's role there, checked before any use case runs.
      const optionalRole = optionalAuthRouteKeys.get(event.routeKey);
      if (optionalRole !== undefined) {
        request.claims = await optionalClaims(deps, request);
        if (optionalRole && request.claims) request.claims = await actingOrSelf(deps, request.claims, optionalRole, request.header(ORG_HEADER));
      }
      const role = userRouteRoles.get(event.routeKey);
      if (role && request.claims) request.claims = await actingClaims(deps, request.claims, role, request.header(ORG_HEADER));
      if (twoStepRouteKeys.has(event.routeKey) && request.claims) await requireTwoStep(deps, request.claims);
      const reply = await run(request);
      if (reply.binary) {
        return { statusCode: reply.status, headers: { 'cache-control': 'no-store', ...reply.headers }, body: Buffer.from(reply.binary).toString('base64'), isBase64Encoded: true };
      }
      if (reply.text !== undefined) {
        return { statusCode: reply.status, headers: { 'cache-control': 'no-store', ...reply.headers }, body: reply.text };
      }
      return json(reply.status, reply.body, reply.headers);
    } catch (error) {
      return errorReply(error, deps);
    }
  };
}

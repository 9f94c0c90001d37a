import { env } from '../config/env';

/** An API answer other than 2xx, carrying the API's `{ error, message }` body (STYLE.md habit 5). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The whole JSON body, for the fields some answers add (`fields`, `remainingAttempts`). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function readError(response: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's error page, say): the status alone has to do.
  }
  const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
  // SPEC §7: "throws the server error or 'HTTP {status}'".
  const message = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
  return new ApiError(response.status, code, message, body);
}

/**
 * Where the signed-in user's access token comes from (set by the auth feature once Amplify is
 * configured). Every call carries it when there is one: `user` routes need it, and public routes
 * such as the audit view answer the owner with more.
 */
type TokenSource = () => Promise<string | undefined>;
let tokenSource: TokenSource = async () => undefined;

export function setAccessTokenSource(source: TokenSource): void {
  tokenSource = source;
}

/**
 * Teams (issue 22 item 2): the organisation the dashboard acts on, sent as `X-Rampart-Org` with a
 * signed-in call (none: the person's own). Kept in localStorage so a reload stays in it; the server
 * checks membership and role on every request whatever is stored here.
 */
const ORGANISATION_KEY = 'rampart.organisation';
export const ORGANISATION_HEADER = 'x-rampart-org';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

let actingOrganisationId: string | undefined = storage()?.getItem(ORGANISATION_KEY) ?? undefined;

export function actingOrganisation(): string | undefined {
  return actingOrganisationId;
}

export function setActingOrganisation(id: string | undefined): void {
  actingOrganisationId = id;
  if (id) storage()?.setItem(ORGANISATION_KEY, id);
  else storage()?.removeItem(ORGANISATION_KEY);
}

interface RequestOptions {
  signal?: AbortSignal;
}

async function request(method: string, path: string, body: unknown, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = await tokenSource().catch(() => undefined);
  if (token) headers.authorization = `Bearer ${token}`;
  if (token && actingOrganisationId) headers[ORGANISATION_HEADER] = actingOrganisationId;
  const response = await fetch(`${env.API_URL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });
  if (!response.ok) throw await readError(response);
  return response;
}

async function json<T>(response: Response): Promise<T> {
  // 204 No Content (a delete): nothing to read.
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Calls the API and returns its JSON body; throws ApiError on a non-2xx status. */
export async function apiGet<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return json<T>(await request('GET', path, undefined, options));
}

/** POSTs a JSON body and returns the JSON answer; throws ApiError on a non-2xx status. */
export async function apiPost<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return json<T>(await request('POST', path, body, options));
}

/** PUTs a JSON body (a whole replacement) and returns the JSON answer. */
export async function apiPut<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return json<T>(await request('PUT', path, body, options));
}

/** DELETEs a resource; resolves with the JSON answer, or undefined for 204. */
export async function apiDelete<T = void>(path: string, options: RequestOptions = {}): Promise<T> {
  return json<T>(await request('DELETE', path, undefined, options));
}

/** GETs a file (a CSV, a PDF) as a Blob, with the user's token. */
export async function apiGetBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await request('GET', path, undefined, options)).blob();
}

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

/** Calls the API and returns its JSON body; throws ApiError on a non-2xx status. */
export async function apiGet<T>(path: string, options: { signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(`${env.API_URL}${path}`, {
    headers: { accept: 'application/json' },
    signal: options.signal,
  });
  if (!response.ok) throw await readError(response);
  return (await response.json()) as T;
}

/** POSTs a JSON body and returns the JSON answer; throws ApiError on a non-2xx status. */
export async function apiPost<T>(path: string, body: unknown, options: { signal?: AbortSignal } = {}): Promise<T> {
  const response = await fetch(`${env.API_URL}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  if (!response.ok) throw await readError(response);
  return (await response.json()) as T;
}

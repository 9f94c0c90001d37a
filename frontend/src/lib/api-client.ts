import { env } from '../config/env';

/** An API answer other than 2xx, carrying the API's `{ error, message }` body (STYLE.md habit 5). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBody {
  error?: unknown;
  message?: unknown;
}

async function readError(response: Response): Promise<ApiError> {
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // Not JSON (a proxy's error page, say): the status alone has to do.
  }
  const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
  const message = typeof body.message === 'string' ? body.message : response.statusText || 'Request failed';
  return new ApiError(response.status, code, message);
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

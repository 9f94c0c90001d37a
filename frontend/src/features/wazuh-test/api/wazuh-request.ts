import { ApiError, apiPost } from '../../../lib/api-client';
import { routePath, wazuhErrorText, wazuhRequestUrl, type WazuhRelayResponse, type WazuhTestResult } from '../../../lib/contracts';

export interface WazuhRequest {
  /** The manager's API base, already checked (parseWazuhEndpoint). */
  endpoint: string;
  /** One of the tester's paths (wazuhTestPath). */
  path: string;
  token: string;
}

/** Why the request failed, from the answer (Wazuh's `{title, detail}`) or the status. */
function failureText(status: number, data: unknown): string {
  return wazuhErrorText(data) ?? (typeof data === 'string' && data.trim() ? data.trim().slice(0, 300) : `HTTP ${status}`);
}

function resultOf(endpoint: string, status: number, data: unknown, timestamp: string): WazuhTestResult {
  const success = status >= 200 && status < 300;
  return { success, status, data, endpoint, timestamp, ...(success ? {} : { error: failureText(status, data) }) };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * SPEC §7: straight from the browser to the user's manager, with the token as a bearer. A manager
 * that does not answer the CORS preflight looks like a network error here (the browser says no more).
 */
export async function callWazuhDirect({ endpoint, path, token }: WazuhRequest, signal?: AbortSignal): Promise<WazuhTestResult> {
  const url = wazuhRequestUrl(endpoint, path);
  const timestamp = new Date().toISOString();
  try {
    const response = await fetch(url, { headers: { accept: 'application/json', authorization: `Bearer ${token}` }, signal });
    return resultOf(url, response.status, await readBody(response), timestamp);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      success: false,
      status: 0,
      data: null,
      endpoint: url,
      timestamp,
      error: `Network error (${reason}): the manager did not answer, its certificate is not trusted by this browser, or it does not allow calls from this page (CORS).`,
    };
  }
}

/** Through Rampart's relay (`POST /api/wazuh/relay`, signed in): for managers that block browsers' CORS. */
export async function callWazuhRelay(request: WazuhRequest, signal?: AbortSignal): Promise<WazuhTestResult & { certificateTrusted?: boolean }> {
  const url = wazuhRequestUrl(request.endpoint, request.path);
  const timestamp = new Date().toISOString();
  try {
    const answer = await apiPost<WazuhRelayResponse>(routePath('relay-wazuh-request'), request, { signal });
    return {
      ...resultOf(answer.endpoint, answer.status, answer.data, timestamp),
      ...(answer.certificateTrusted === undefined ? {} : { certificateTrusted: answer.certificateTrusted }),
    };
  } catch (error) {
    // Rampart refused or could not relay (a private address, no answer, a limit): no status from the
    // manager, so the status stays 0 and Rampart's own status and message say why.
    const reason = error instanceof ApiError ? ` (HTTP ${error.status}, ${error.code}): ${error.message}` : `: ${error instanceof Error ? error.message : String(error)}`;
    return { success: false, status: 0, data: error instanceof ApiError ? error.body : null, endpoint: url, timestamp, error: `Rampart did not relay the request${reason}` };
  }
}

import { isIP } from 'node:net';
import type { Deps } from '../composition.js';
import { parseContract } from '../domain/contract.js';
import { DomainError, UpstreamUnavailableError } from '../domain/errors.js';
import { WAZUH_RELAY_LIMITS, wazuhRelayRequestSchema, wazuhRequestUrl, type WazuhRelayResponse } from '../domain/wazuh.contract.js';
import type { ScanSettings } from '../scanner/check.js';
import { createHttpClient, HttpTargetRefusedError } from '../scanner/net/http-client.js';
import { createResolver } from '../scanner/resolver.js';
import { refusedAddress } from '../scanner/target-guard.js';
import { enforceLimits } from './rate-limits.js';
import { withDeadline } from '../domain/deadline.js';

type RelayDeps = Pick<Deps, 'rateLimits'> & { scanSettings: ScanSettings };

/** How the relay finds a manager's addresses: the scanner's resolver (SCAN_RESOLVERS), A and AAAA. */
function resolverFor(settings: ScanSettings): (host: string) => Promise<string[]> {
  const resolver = createResolver(settings);
  return async (host) => {
    if (isIP(host)) return [host];
    const [v4, v6] = await Promise.all([resolver.resolve4(host), resolver.resolve6(host).catch(() => [])]);
    return [...v4, ...v6];
  };
}

const unreachable = (host: string, reason: string) =>
  new UpstreamUnavailableError('wazuh_unreachable', `Rampart could not reach ${host}: ${reason}.`, { host });

/**
 * `POST /api/wazuh/relay`: sends one of the Wazuh tester's read-only GETs for a signed-in user whose
 * manager does not answer browsers' CORS preflights. The manager's address goes through the
 * scanner's target guard (private, loopback, link-local and metadata addresses refused unless
 * SCAN_ALLOW_PRIVATE_TARGETS), the addresses are pinned (no DNS rebinding), no redirect is followed
 * (the token would travel with it), and the answer is bounded in time and size.
 */
export async function relayWazuhRequest(deps: RelayDeps, userId: string, input: unknown): Promise<WazuhRelayResponse> {
  const request = parseContract(wazuhRelayRequestSchema, input);
  await enforceLimits(deps.rateLimits, [{ scope: 'wazuh-relay:user', subject: userId, perHour: WAZUH_RELAY_LIMITS.perUserPerHour }], 'Wazuh test requests');

  const url = new URL(wazuhRequestUrl(request.endpoint, request.path));
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const resolve = resolverFor(deps.scanSettings);
  // One budget for the name and the answer, well inside the function's 10 s.
  const deadline = Date.now() + WAZUH_RELAY_LIMITS.timeoutMs;
  let addresses: string[];
  try {
    addresses = await withDeadline(resolve(host), deadline, 'DNS timeout');
  } catch (error) {
    throw unreachable(host, `its name could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`);
  }
  if (addresses.length === 0) throw unreachable(host, 'the name has no address');
  const refused = refusedAddress(addresses, deps.scanSettings.allowPrivateTargets);
  if (refused) throw new HttpTargetRefusedError(host, refused);

  const http = createHttpClient({ pinned: new Map([[host, addresses]]), resolve, allowPrivateTargets: deps.scanSettings.allowPrivateTargets });
  try {
    const response = await http.request(url.href, {
      headers: { accept: 'application/json', authorization: `Bearer ${request.token}` },
      followRedirects: 0,
      maxBodyBytes: WAZUH_RELAY_LIMITS.maxBodyBytes,
      timeoutMs: Math.max(1, deadline - Date.now()),
    });
    return {
      status: response.status,
      endpoint: url.href,
      data: parseBody(response.body, response.bodyTruncated === true),
      truncated: response.bodyTruncated === true,
      ...(response.certificateTrusted === undefined ? {} : { certificateTrusted: response.certificateTrusted }),
    };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') throw unreachable(host, `no answer within ${WAZUH_RELAY_LIMITS.timeoutMs / 1000} seconds`);
    throw unreachable(host, code ?? 'the connection failed');
  }
}

/** JSON when the manager sent JSON (and all of it arrived), else the text as it came. */
function parseBody(body: string, truncated: boolean): unknown {
  if (truncated || body.trim() === '') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

import * as z from 'zod';

/**
 * The Wazuh API tester (SPEC §2 "Wazuh tester", §3 "Wazuh response fields read", §7): the test
 * types it offers, the texts it shows, how it reads a Wazuh answer, and the optional relay
 * (`POST /api/wazuh/relay`) for managers that do not answer browsers' CORS preflights.
 */

/** SPEC §5/§8: the tester's alerts and banner, as the spec writes them. */
export const wazuhMessages = {
  tokenMissing: 'Please enter your Wazuh API token first',
  endpointMissing: 'Please enter your Wazuh API endpoint',
  tokenCopied: 'Token copied to clipboard',
  testing: 'Testing API...',
  testFailed: 'API Test Failed',
  endpointInvalid: 'Please enter the Wazuh API address as an http(s) URL, such as https://wazuh.example.com:55000',
  pathNotAllowed: 'Rampart relays only the tester’s own read-only requests.',
  tokenInvalid: 'Please enter the Wazuh API token (a JWT of at most 8,192 characters).',
  domainInvalid: 'Please enter the domain the agents were installed for, such as example.com',
} as const;

/** The Reset button's base: Wazuh's API listens on 55000 by default. */
export const DEFAULT_WAZUH_ENDPOINT = 'https://your-wazuh-manager:55000';

/** Permissions the token's role needs (SPEC §6). */
export const WAZUH_REQUIRED_PERMISSIONS = ['agents:read', 'groups:read', 'vulnerability:read'] as const;

export const wazuhTestTypes = ['server-info', 'agents', 'groups', 'agents-by-name', 'active-agents', 'disconnected-agents'] as const;
export type WazuhTestType = (typeof wazuhTestTypes)[number];

/** What each test type asks for, in the dropdown's order (SPEC §7: the base, /agents, /groups, search, active, disconnected). */
export const WAZUH_TEST_TYPES: readonly { type: WazuhTestType; label: string; path: string }[] = [
  { type: 'server-info', label: 'Server info', path: '/' },
  { type: 'agents', label: 'All agents', path: '/agents' },
  { type: 'groups', label: 'Groups', path: '/groups' },
  { type: 'agents-by-name', label: 'Agents by name', path: '/agents?search={product}-{domain}' },
  { type: 'active-agents', label: 'Active agents', path: '/agents?status=active' },
  { type: 'disconnected-agents', label: 'Disconnected agents', path: '/agents?status=disconnected' },
];

const AGENT_NAME = /^[a-z0-9][a-z0-9.-]{0,252}$/;

/** SPEC §3: agents are named {product}-{domain} (lower case, the domain as typed). */
export const wazuhAgentName = (productSlug: string, domain: string): string => `${productSlug}-${domain.trim().toLowerCase()}`;

/** The request path of a test type; `agents-by-name` needs the agent name. */
export function wazuhTestPath(type: WazuhTestType, agentName = ''): string {
  if (type === 'agents-by-name') return `/agents?search=${encodeURIComponent(agentName)}`;
  return WAZUH_TEST_TYPES.find((t) => t.type === type)!.path;
}

/** True for exactly the paths the tester sends: the relay forwards nothing else. */
export function isWazuhTestPath(path: string): boolean {
  if (WAZUH_TEST_TYPES.some((t) => t.type !== 'agents-by-name' && t.path === path)) return true;
  const search = /^\/agents\?search=([^&#]*)$/.exec(path)?.[1];
  return search !== undefined && AGENT_NAME.test(search);
}

/**
 * A Wazuh API base: http(s), no credentials, query or fragment; a path prefix is kept (a manager
 * behind a reverse proxy at /wazuh). Returned without a trailing slash.
 */
export function parseWazuhEndpoint(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash || !url.hostname) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The full URL of one test: the base (trailing slash dropped) and the test's path. */
export const wazuhRequestUrl = (endpoint: string, path: string): string => `${endpoint.trim().replace(/\/+$/, '')}${path}`;

/** `POST /api/wazuh/relay`: one of the tester's requests, sent by Rampart's server instead of the browser. */
export const wazuhRelayRequestSchema = z.object({
  endpoint: z
    .string({ error: wazuhMessages.endpointInvalid })
    .max(2048, wazuhMessages.endpointInvalid)
    .transform((value, ctx) => {
      const endpoint = parseWazuhEndpoint(value);
      if (!endpoint) {
        ctx.addIssue({ code: 'custom', message: wazuhMessages.endpointInvalid });
        return z.NEVER;
      }
      return endpoint;
    }),
  path: z.string({ error: wazuhMessages.pathNotAllowed }).refine(isWazuhTestPath, wazuhMessages.pathNotAllowed),
  token: z
    .string({ error: wazuhMessages.tokenInvalid })
    .trim()
    .min(1, wazuhMessages.tokenInvalid)
    .max(8192, wazuhMessages.tokenInvalid)
    // It travels in a header: no line breaks or other control characters.
    .regex(/^[\x21-\x7e]+$/, wazuhMessages.tokenInvalid),
});

export type WazuhRelayRequest = z.input<typeof wazuhRelayRequestSchema>;

/** What the relay answers (200) when the manager answered, whatever its status. */
export interface WazuhRelayResponse {
  /** The manager's HTTP status. */
  status: number;
  /** The URL that was requested. */
  endpoint: string;
  /** The manager's body: parsed JSON, or the text when it was not JSON. */
  data: unknown;
  /** True when the body was longer than the relay keeps (WAZUH_RELAY_LIMITS.maxBodyBytes) and was cut. */
  truncated: boolean;
  /** For https: whether the manager's certificate is trusted (Wazuh installs a self-signed one by default). */
  certificateTrusted?: boolean;
}

export const WAZUH_RELAY_LIMITS = {
  /** For the name and the answer together (the function itself has 10 s). */
  timeoutMs: 8_000,
  maxBodyBytes: 1024 * 1024,
  perUserPerHour: 120,
} as const;

/** SPEC §3 "Test-result record". */
export interface WazuhTestResult {
  success: boolean;
  /** The HTTP status, or 0 when no answer arrived (network error, CORS refusal). */
  status: number;
  data: unknown;
  error?: string;
  endpoint: string;
  timestamp: string;
}

/** SPEC §8: what each expected status means. */
export const WAZUH_STATUS_ANALYSIS: readonly { status: number; meaning: string }[] = [
  { status: 200, meaning: 'Success: the token is valid and has the permissions this request needs.' },
  { status: 401, meaning: 'Bad token: it is wrong or has expired (Wazuh tokens last 900 seconds by default). Get a new one.' },
  { status: 403, meaning: 'No permissions: the token’s role lacks a permission this request needs (agents:read, groups:read, vulnerability:read).' },
  { status: 404, meaning: 'Endpoint not found: check the base URL (port 55000 by default) and any path prefix.' },
];

export interface WazuhAgentSummary {
  name: string;
  ip: string;
  status: string;
  group: string;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(', ');
  return '';
};

/**
 * SPEC §3 "Wazuh response fields read": data.affected_items (the first 3 agents: name, ip, status,
 * group) and data.total_affected_items. Undefined when the answer is not a Wazuh list.
 */
export function readWazuhItems(body: unknown, limit = 3): { total: number; items: WazuhAgentSummary[] } | undefined {
  const data = asRecord(asRecord(body)?.data);
  const items = data?.affected_items;
  if (!Array.isArray(items)) return undefined;
  const total = typeof data?.total_affected_items === 'number' ? data.total_affected_items : items.length;
  return {
    total,
    items: items.slice(0, limit).map((item) => {
      const record = asRecord(item) ?? {};
      return { name: text(record.name), ip: text(record.ip), status: text(record.status), group: text(record.group) };
    }),
  };
}

/** A short reason out of a Wazuh error body (`{title, detail}`), else undefined. */
export function wazuhErrorText(body: unknown): string | undefined {
  const record = asRecord(body);
  if (!record) return undefined;
  const parts = [text(record.title), text(record.detail)].filter(Boolean);
  return parts.length > 0 ? parts.join(': ') : undefined;
}

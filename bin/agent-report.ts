/**
 * `npm run agent:report -- --domain shop.example.com --secret enr_…`: acts as an endpoint agent
 * against a running `npm start` (or any deployment): registers a machine with the account's
 * enrollment secret (Install Agent tab) and posts generated osquery reports
 * (lambdas/agents/report-generator.ts), so the Local Agents page has something real to show.
 *
 * Options: --base (default http://localhost:3000), --platform linux|windows|macos (default linux),
 * --problems all|none|a,b,… (default all; see AGENT_PROBLEMS), --hostname, --email, --count (reports,
 * default 1), --seed. The same hostname and domain register as the same agent again.
 * Prints one JSON line per step; exit code 1 on any refusal.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AGENT_PROBLEMS, type AgentProblem, generateAgentReport, generatedHostname } from '../lambdas/agents/report-generator.js';
import { AGENT_VERSION, type AgentPlatform, agentPlatforms, OSQUERY_VERSION } from '../lambdas/domain/agents.contract.js';

export interface AgentReportRun {
  agentId: string;
  reports: { status: number; body: unknown }[];
}

function problemsOf(text: string): AgentProblem[] {
  if (text === 'all') return [...AGENT_PROBLEMS];
  if (text === 'none' || text === '') return [];
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(AGENT_PROBLEMS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`Unknown problems: ${unknown.join(', ')} (known: ${AGENT_PROBLEMS.join(', ')})`);
  return names as AgentProblem[];
}

async function post(url: string, bearer: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: shown as it came.
  }
  return { status: response.status, body: parsed };
}

/** Registers and sends `--count` reports; throws with the API's answer when it refuses. */
export async function runAgentReport(argv: readonly string[], log: (line: string) => void = (line) => console.log(line)): Promise<AgentReportRun> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      domain: { type: 'string' },
      secret: { type: 'string' },
      base: { type: 'string', default: 'http://localhost:3000' },
      platform: { type: 'string', default: 'linux' },
      problems: { type: 'string', default: 'all' },
      hostname: { type: 'string' },
      email: { type: 'string' },
      count: { type: 'string', default: '1' },
      seed: { type: 'string' },
    },
    strict: true,
  });
  if (!values.domain || !values.secret) throw new Error('Usage: npm run agent:report -- --domain <verified domain> --secret <enrollment secret> [--base URL] [--platform linux|windows|macos] [--problems all|none|a,b] [--count N]');
  const platform = values.platform as AgentPlatform;
  if (!agentPlatforms.includes(platform)) throw new Error(`--platform must be one of ${agentPlatforms.join(', ')}`);
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 50) throw new Error('--count must be a whole number from 1 to 50');
  const problems = problemsOf(values.problems);
  const seed = values.seed ?? `${values.domain}-${platform}`;
  const hostname = values.hostname ?? generatedHostname(platform, seed);
  const base = values.base.replace(/\/+$/, '');

  const registered = await post(`${base}/api/agents/registrations`, values.secret, {
    email: values.email ?? `it@${values.domain}`,
    domain: values.domain,
    hostname,
    os: platform,
    osquery_version: OSQUERY_VERSION,
    agent_version: AGENT_VERSION,
    timestamp: new Date().toISOString(),
  });
  log(JSON.stringify({ step: 'register', ...registered }));
  const { agent_id: agentId, agent_token: token } = (registered.body ?? {}) as { agent_id?: string; agent_token?: string };
  if (registered.status !== 201 || !agentId || !token) throw new Error(`Registration refused (HTTP ${registered.status})`);

  const reports: AgentReportRun['reports'] = [];
  for (let i = 0; i < count; i += 1) {
    const { report } = generateAgentReport({ platform, seed: `${seed}-${i}`, agentId, clientDomain: values.domain, timestamp: new Date().toISOString(), hostname, problems });
    const sent = await post(`${base}/api/agents/reports`, token, report);
    log(JSON.stringify({ step: 'report', ...sent }));
    reports.push(sent);
    if (sent.status !== 200) throw new Error(`Report refused (HTTP ${sent.status})`);
  }
  return { agentId, reports };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await runAgentReport(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}

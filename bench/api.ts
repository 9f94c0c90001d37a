/**
 * `npm run bench:api`: the API under load on this machine, the whole local stack in-process
 * (emulators, HTTP server, scan worker) as `npm start` runs it.
 *
 * 1. 50 scans submitted at once: every one must complete; p50/p95 time from POST to completed.
 * 2. GET /api/audits/{id} under 50 concurrent clients (autocannon): p99 latency.
 * 3. POST /api/leads under 50 concurrent clients, each lead different (no idempotent replays): p99.
 * Phases 2 and 3 measure the API alone: the worker stops consuming the queue first, as on AWS the
 * scan worker is another Lambda and does not share the API's CPU (here everything is one process).
 * Targets (issue 5): lead POST p99 ≤ 150 ms, GET p99 ≤ 50 ms, 50 scans all complete with p95 ≤ 60 s.
 *
 * Loopback only: the scan targets are names the bench's own DNS server maps to 127.0.0.1, port
 * 2024 is excluded, and the rate limits are raised for the run (all clients share one address).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startLocalStack } from '../bin/local/stack.js';
import { startDnsServer } from '../test/support/dns-server.js';
import { TEST_RATE_LIMITS } from '../test/support/local-stack.js';
import { benchLead as lead } from './load-client.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results', 'api-latest.json');
const SCANS = 50;
const CONNECTIONS = 50;
const TARGETS = { leadP99Ms: 150, getP99Ms: 50, scansP95Ms: 60_000 };

/** autocannon in its own process (bench/load-client.ts): in this one it would share the event loop it measures. */
async function load(job: Record<string, unknown>): Promise<{ total: number; p50: number; p99: number; errors: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'load-client.ts'), JSON.stringify(job)], { cwd: ROOT });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { total: number; p50: number; p99: number; errors: number };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main() {
  const names = Object.fromEntries(Array.from({ length: 5000 }, (_, n) => [`site${n}.bench.test`, ['127.0.0.1']]));
  const dns = await startDnsServer(names);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rampart-bench-api-'));
  const limits = Object.fromEntries(Object.keys(TEST_RATE_LIMITS).map((key) => [key, '1000000']));
  const stack = await startLocalStack({
    dataDir,
    port: 0,
    staticDir: path.join(dataDir, 'no-site'),
    env: { LOG_LEVEL: 'ERROR', SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${dns.port}`, SCAN_DNS_TIMEOUT_MS: '1000', SCAN_EXCLUDE_PORTS: '2024', ...limits },
  });
  const post = (body: unknown) =>
    fetch(`${stack.url}/api/leads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  try {
    // 1. 50 scans at once.
    console.log(`bench:api: ${SCANS} scans submitted at once…`);
    const started = performance.now();
    const submitted = await Promise.all(
      Array.from({ length: SCANS }, async (_, n) => {
        const response = await post(lead(n));
        const body = (await response.json()) as { auditId?: string };
        if (response.status !== 201 || !body.auditId) throw new Error(`lead ${n}: ${response.status} ${JSON.stringify(body)}`);
        return { auditId: body.auditId, at: performance.now() };
      }),
    );
    const done = new Map<string, { ms: number; status: string }>();
    const deadline = Date.now() + 180_000;
    while (done.size < SCANS && Date.now() < deadline) {
      await Promise.all(
        submitted
          .filter((s) => !done.has(s.auditId))
          .map(async (s) => {
            const { audit } = (await (await fetch(`${stack.url}/api/audits/${s.auditId}`)).json()) as { audit: { status: string } };
            if (audit.status === 'completed' || audit.status === 'failed') done.set(s.auditId, { ms: performance.now() - s.at, status: audit.status });
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const times = [...done.values()].map((d) => d.ms).sort((a, b) => a - b);
    const scans = {
      submitted: SCANS,
      completed: [...done.values()].filter((d) => d.status === 'completed').length,
      failed: [...done.values()].filter((d) => d.status === 'failed').length,
      p50Ms: Math.round(percentile(times, 50)),
      p95Ms: Math.round(percentile(times, 95)),
      wallMs: Math.round(performance.now() - started),
    };
    console.log(`bench:api: scans ${JSON.stringify(scans)}`);

    // 2. GET under 50 clients (the API alone: see the header).
    await stack.stopWorker();
    const auditId = submitted[0]!.auditId;
    const get = await load({ url: `${stack.url}/api/audits/${auditId}`, connections: CONNECTIONS, duration: 10 });
    console.log(`bench:api: GET /api/audits/{id} ${get.total} requests, p50 ${get.p50} ms, p99 ${get.p99} ms, errors ${get.errors}`);

    // Service time without queueing: one client, one request at a time.
    const sequential = async (count: number, send: () => Promise<Response>) => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        await (await send()).text();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return { p50Ms: Number(percentile(times, 50).toFixed(1)), p99Ms: Number(percentile(times, 99).toFixed(1)) };
    };
    const getAlone = await sequential(200, () => fetch(`${stack.url}/api/audits/${auditId}`));
    console.log(`bench:api: GET one client: p50 ${getAlone.p50Ms} ms, p99 ${getAlone.p99Ms} ms`);

    // 3. Lead POSTs under 50 clients, each body different.
    const leads = await load({ url: `${stack.url}/api/leads`, connections: CONNECTIONS, amount: 1000, leads: { from: SCANS } });
    console.log(`bench:api: POST /api/leads ${leads.total} requests, p50 ${leads.p50} ms, p99 ${leads.p99} ms, errors ${leads.errors}`);

    let n = SCANS + 1000;
    const postAlone = await sequential(100, () => post(lead(n++)));
    console.log(`bench:api: POST one client: p50 ${postAlone.p50Ms} ms, p99 ${postAlone.p99Ms} ms`);

    const results = {
      at: new Date().toISOString(),
      machine: '2 cores, the whole local stack in one process, the load generator in another',
      scans: { ...scans, targetP95Ms: TARGETS.scansP95Ms, met: scans.completed === SCANS && scans.p95Ms <= TARGETS.scansP95Ms },
      getAuditOneClient: getAlone,
      postLeadOneClient: postAlone,
      getAudit: { requests: get.total, p50Ms: get.p50, p99Ms: get.p99, errors: get.errors, targetP99Ms: TARGETS.getP99Ms, met: get.p99 <= TARGETS.getP99Ms },
      postLead: { requests: leads.total, p50Ms: leads.p50, p99Ms: leads.p99, errors: leads.errors, targetP99Ms: TARGETS.leadP99Ms, met: leads.p99 <= TARGETS.leadP99Ms },
    };
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    console.log('');
    console.log('measure                           figure        target        met');
    console.log(`50 scans at once, p95 to complete ${String(results.scans.p95Ms).padStart(7)} ms  ≤ ${TARGETS.scansP95Ms} ms   ${results.scans.met ? 'yes' : 'NO'} (${scans.completed}/${SCANS} completed, p50 ${scans.p50Ms} ms)`);
    console.log(`GET /api/audits/{id} p99 (50)     ${String(results.getAudit.p99Ms).padStart(7)} ms  ≤ ${TARGETS.getP99Ms} ms      ${results.getAudit.met ? 'yes' : 'NO'}`);
    console.log(`POST /api/leads p99 (50)          ${String(results.postLead.p99Ms).padStart(7)} ms  ≤ ${TARGETS.leadP99Ms} ms     ${results.postLead.met ? 'yes' : 'NO'}`);
    console.log(`one client at a time (service time): GET p99 ${getAlone.p99Ms} ms, POST p99 ${postAlone.p99Ms} ms`);
    console.log(`bench:api: results in ${path.relative(ROOT, RESULTS)}`);
  } finally {
    await stack.stop();
    await dns.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

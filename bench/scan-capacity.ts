/**
 * `npm run bench:scan-capacity` (issue 30 item 4): what a deep scan costs in CPU, and what that
 * means for the scan worker's memory on Lambda.
 *
 * Runs the worker's deep scan (top 1,000 ports, every check plus the subdomain surface, the deep
 * deadline) `--runs` times against loopback servers only (a site on 127.0.0.231:80 and :443 speaking
 * HTTP and HTTPS with a self-signed certificate, three of its subdomains, a DNS server for the zone;
 * no other network), measuring each scan's wall time and the process's CPU time (user + system,
 * which includes the loopback servers' own small share: an over-estimate, on the safe side). The
 * first run pays the lazy imports, as a cold Lambda does; the figures are the warm runs' median.
 *
 * Lambda gives CPU in proportion to memory: 1,769 MB is one vCPU (AWS Lambda docs, "Configuring
 * memory"). With share s = memory / 1769 (capped at 1 for one thread's work), a scan whose CPU time
 * is c and whose waiting (network) time is w here takes about w + c / s on Lambda, and with a batch
 * of two scans sharing the function, about w + 2c / s. The figures printed: CPU time, wall time, and
 * that estimate at 1,024 MB (batch 2, the old settings; batch 1) and at 1,769 MB (batch 1), against
 * the worker's 90 s timeout. Written to bench/results/scan-capacity.json.
 *
 * Needs root (ports 80 and 443 on 127.0.0.231). Not part of `npm run bench` (its range part needs the range).
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCAN_DEPTHS } from '../lambdas/domain/plans.js';
import { parseWebTarget } from '../lambdas/domain/target.js';
import { checksWith } from '../lambdas/scanner/checks/index.js';
import { subdomainSurfaceCheck } from '../lambdas/scanner/checks/subdomain-surface.check.js';
import { scan } from '../lambdas/scanner/scan.js';
import { DEEP_SCAN_DEADLINE_MS } from '../lambdas/use-cases/run-scan.js';
import { startDnsServer } from '../test/support/dns-server.js';
import { bothProtocols } from '../test/support/loopback-servers.js';
import { selfSignedCertificate } from '../test/support/self-signed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'bench', 'results', 'scan-capacity.json');
/** AWS Lambda: at 1,769 MB a function has the equivalent of one vCPU; CPU scales linearly with memory. */
const MB_PER_VCPU = 1769;
/** lambdas/routes.ts workerFunctions['scan-worker'].timeoutSeconds. */
const WORKER_TIMEOUT_S = 90;
const HOST = 'shop.example.test';
/** A loopback address of its own, so the bench's ports 80 and 443 do not meet a test's servers. */
const ADDRESS = '127.0.0.231';

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const page = (secure: boolean): http.RequestListener => (request, response) => {
  const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', server: 'nginx' };
  if (secure) headers['strict-transport-security'] = 'max-age=31536000';
  if (!secure && request.url === '/') {
    response.writeHead(301, { location: `https://${request.headers.host ?? HOST}/` }).end();
    return;
  }
  if (request.url !== '/') {
    response.writeHead(404, headers).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    return;
  }
  response.writeHead(200, headers).end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><script src="/app.js"></script></head><body><h1>Shop</h1><form method="post" action="/login"><input type="password" name="p"></form></body></html>');
};

async function listen(server: Server, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ADDRESS, () => resolve());
  });
  if ((server.address() as AddressInfo).port !== port) throw new Error(`could not listen on ${ADDRESS}:${port}`);
}

/** Lambda's estimate for a scan: waiting as measured here, CPU stretched by the function's share (shared by `batch` scans). */
function onLambda(cpuMs: number, wallMs: number, memoryMb: number, batch: number) {
  const share = Math.min(1, memoryMb / MB_PER_VCPU) / batch;
  const waitMs = Math.max(0, wallMs - cpuMs);
  const estimatedMs = Math.round(waitMs + cpuMs / share);
  // Billed per function-second: a batch of two shares one invocation's seconds.
  return { memoryMb, batch, vcpuPerScan: Number(share.toFixed(3)), estimatedMs, gbSecondsPerScan: Number(((memoryMb / 1024) * (estimatedMs / 1000) / batch).toFixed(2)) };
}

async function main(): Promise<number> {
  const runs = Number(argument('--runs') ?? '4');
  if (!Number.isInteger(runs) || runs < 2 || runs > 20) throw new Error('--runs takes a number from 2 to 20');
  const tls = selfSignedCertificate(HOST, 2);
  const servers = [bothProtocols(tls, page), bothProtocols(tls, page)];
  await listen(servers[0]!, 443);
  await listen(servers[1]!, 80);
  const zone: Record<string, string[]> = {
    [HOST]: [ADDRESS],
    [`www.${HOST}`]: [ADDRESS],
    [`mail.${HOST}`]: [ADDRESS],
    [`shop.${HOST}`]: [ADDRESS],
  };
  const dns = await startDnsServer(zone);
  const target = parseWebTarget(`https://${HOST}/`);
  if (!target) throw new Error('bad target');
  const settings = {
    resolvers: [{ host: '127.0.0.1', port: dns.port }],
    dnsTimeoutMs: 1000,
    allowPrivateTargets: true,
    topPorts: SCAN_DEPTHS.deep.topPorts,
    excludePorts: [2024],
    userAgent: 'Rampart-bench',
  };
  const checks = [...checksWith({}), subdomainSurfaceCheck];
  const results: { wallMs: number; cpuMs: number; checks: number; statuses: Record<string, string>; rssMb: number }[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const report = await scan(target, settings, { deadlineMs: DEEP_SCAN_DEADLINE_MS, checks, mode: 'active' });
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      results.push({
        wallMs: Math.round(wallMs),
        cpuMs: Math.round((used.user + used.system) / 1000),
        checks: report.checks.length,
        statuses: Object.fromEntries(report.checks.map((c) => [c.name, c.status])),
        rssMb: Math.round(process.memoryUsage().rss / 1_048_576),
      });
      console.error(`run ${run + 1}: wall ${Math.round(wallMs)} ms, CPU ${Math.round((used.user + used.system) / 1000)} ms, ${report.checks.length} checks, grade ${report.grade}`);
    }
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await dns.close();
  }
  const warm = results.slice(1);
  const cpuMs = median(warm.map((r) => r.cpuMs));
  const wallMs = median(warm.map((r) => r.wallMs));
  const estimates = [onLambda(cpuMs, wallMs, 1024, 2), onLambda(cpuMs, wallMs, 1024, 1), onLambda(cpuMs, wallMs, 1769, 1)];
  const output = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    scan: { depth: 'deep', topPorts: SCAN_DEPTHS.deep.topPorts, deadlineMs: DEEP_SCAN_DEADLINE_MS, checks: results.at(-1)?.statuses },
    coldRun: results[0],
    warmRuns: warm,
    warmMedian: { cpuMs, wallMs },
    /** The process's resident memory after the last run (engine, knowledge base, servers): the memory floor. */
    rssMb: results.at(-1)?.rssMb,
    lambda: { mbPerVcpu: MB_PER_VCPU, workerTimeoutMs: WORKER_TIMEOUT_S * 1000, estimates },
  };
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`Deep scan against loopback (${runs} runs, warm median): CPU ${cpuMs} ms, wall ${wallMs} ms (cold: CPU ${results[0]!.cpuMs} ms, wall ${results[0]!.wallMs} ms)`);
  console.log(`Resident memory after the runs: ${results.at(-1)!.rssMb} MB`);
  console.log('On Lambda (CPU ÷ the function\'s vCPU share per scan, plus the waiting measured here):');
  for (const e of estimates) {
    console.log(`  ${String(e.memoryMb).padStart(5)} MB, batch ${e.batch}: ${e.vcpuPerScan.toFixed(3)} vCPU a scan → ~${(e.estimatedMs / 1000).toFixed(1)} s (${Math.round((100 * e.estimatedMs) / (WORKER_TIMEOUT_S * 1000))}% of the ${WORKER_TIMEOUT_S} s timeout), ${e.gbSecondsPerScan} GB-s a scan`);
  }
  console.log(`Written to ${path.relative(ROOT, OUT)}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`scan-capacity: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);

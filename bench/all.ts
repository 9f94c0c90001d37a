/**
 * `npm run bench`: everything measured, in one run, written to `bench/latest.json` (committed: the
 * README quotes it) with a readable table on stdout and in the README between its bench markers.
 *
 * 1. The scan range against its peers (`bench/run.ts`: nmap, testssl, sslscan, whatweb side by side
 *    with Rampart; times, ratios, recall).
 * 2. The API under load and scan concurrency (`bench/api.ts`: 50 scans at once, GET and POST latency).
 * 3. The frontend's bundles as served (raw and gzip bytes), and what the landing page loads first.
 *
 * A part that cannot run here (a peer tool missing, say) is recorded as failed; the others still run.
 * `--skip-range` leaves the range out and keeps its last figures (bench/results/latest.json).
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { BenchResults } from './report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'bench', 'latest.json');
const README = path.join(ROOT, 'README.md');
const DIST = path.join(ROOT, 'frontend', 'dist');
const MARK_START = '<!-- bench:start -->';
const MARK_END = '<!-- bench:end -->';

interface ApiResults {
  scans: { submitted: number; completed: number; failed: number; p50Ms: number; p95Ms: number; wallMs: number; targetP95Ms: number; met: boolean };
  getAudit: { requests: number; p50Ms: number; p99Ms: number; errors: number; targetP99Ms: number; met: boolean };
  postLead: { requests: number; p50Ms: number; p99Ms: number; errors: number; targetP99Ms: number; met: boolean };
  getAuditOneClient: { p50Ms: number; p99Ms: number };
  postLeadOneClient: { p50Ms: number; p99Ms: number };
}

interface Bundle {
  file: string;
  bytes: number;
  gzipBytes: number;
}

function run(script: string, args: string[] = []): Promise<{ ok: boolean; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [script, ...args], { cwd: ROOT, stdio: 'inherit' });
    child.once('exit', (code) => resolve({ ok: code === 0, seconds: (performance.now() - started) / 1000 }));
    child.once('error', () => resolve({ ok: false, seconds: (performance.now() - started) / 1000 }));
  });
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Every JS and CSS file the build serves, and the ones index.html loads before anything else runs. */
async function bundles(): Promise<{ files: Bundle[]; landingFirstLoad: { bytes: number; gzipBytes: number; files: string[] } } | undefined> {
  if (!existsSync(path.join(DIST, 'index.html'))) return undefined;
  const assets = path.join(DIST, 'assets');
  const files: Bundle[] = [];
  for (const name of (await fs.readdir(assets)).filter((n) => /\.(js|css)$/.test(n)).sort()) {
    const bytes = await fs.readFile(path.join(assets, name));
    files.push({ file: `assets/${name}`, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length });
  }
  const html = await fs.readFile(path.join(DIST, 'index.html'), 'utf8');
  const first = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const loaded = files.filter((f) => first.includes(f.file));
  return {
    files,
    landingFirstLoad: { bytes: loaded.reduce((s, f) => s + f.bytes, 0), gzipBytes: loaded.reduce((s, f) => s + f.gzipBytes, 0), files: loaded.map((f) => f.file) },
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const fixed = (n: number, digits = 2) => n.toFixed(digits);

function summary(results: {
  at: string;
  machine: { cpus: number; model: string; memoryGiB: number; node: string };
  range?: BenchResults;
  api?: ApiResults;
  frontend?: Awaited<ReturnType<typeof bundles>>;
  parts: Record<string, { ok: boolean; seconds: number }>;
}): string {
  const lines: string[] = [];
  lines.push(`Bench of ${results.at.slice(0, 10)} on ${results.machine.cpus} × ${results.machine.model}, ${results.machine.memoryGiB} GiB, Node ${results.machine.node}`);
  lines.push('');
  if (results.range && results.range.startedAt.slice(0, 10) !== results.at.slice(0, 10)) lines.push(`Scan range vs peers: the run of ${results.range.startedAt.slice(0, 10)} (\`--skip-range\`).`, '');
  lines.push('| measure | Rampart | peer | ratio (target) |');
  lines.push('|---|---|---|---|');
  for (const r of results.range?.ratios.filter((x) => x.what.startsWith('ALL')) ?? []) {
    lines.push(`| ${r.what} | ${fixed(r.rampartSeconds)} s | ${r.peer}: ${fixed(r.peerSeconds)} s | ${fixed(r.ratio, 3)}${r.target === undefined ? '' : ` (≤ ${r.target})`} |`);
  }
  const fw = results.range?.firewalled;
  if (fw?.median.rampartSweep !== undefined && fw.median.nmap !== undefined && fw.ratio !== undefined) {
    const runs = Math.max(...fw.runs.map((r) => r.run));
    lines.push(`| firewalled lossy host ${fw.address}: deep-scan port sweep, median of ${runs} | ${fixed(fw.median.rampartSweep)} s | nmap -sT top-1000: ${fixed(fw.median.nmap)} s | ${fixed(fw.ratio, 3)} (≤ ${fw.target}) |`);
  }
  for (const row of results.range?.freeScan?.rows ?? []) {
    const free = results.range!.freeScan!;
    if (row.today.p50Ms === undefined) continue;
    lines.push(
      `| free scan ${row.target}, p50 of ${row.today.runs.length} | ${fixed(row.today.p50Ms / 1000)} s | baseline ${free.baseline?.rev ?? 'n/a'}: ${row.baseline?.p50Ms === undefined ? 'n/a' : `${fixed(row.baseline.p50Ms / 1000)} s`} | ${row.ratio === undefined ? 'n/a' : fixed(row.ratio, 3)} (≤ ${free.limit}) |`,
    );
  }
  if (!results.range) lines.push('| scan range vs peers | not run | | |');
  lines.push('');
  if (fw) {
    const found = (tool: 'nmap' | 'rampart') => {
      const runs = fw.runs.filter((r) => r.tool === tool);
      const sets = [...new Set(runs.map((r) => (r.ok ? r.open.join(', ') || 'none' : 'failed')))];
      return `${tool} ${sets.join(' / ')} (${runs.length} runs)`;
    };
    lines.push(`Firewalled host (open ${fw.truth.join(', ')}, the rest dropped, ${fw.lossPercent}% loss): open ports found by ${found('nmap')}, ${found('rampart')}; same in every run: ${fw.sameOpenPorts ? 'yes' : 'no'}; Rampart with banners ${fw.median.rampartCheck === undefined ? 'n/a' : `${fixed(fw.median.rampartCheck)} s`}; load average ${fixed(fw.load.before)} → ${fixed(fw.load.after)} on ${results.machine.cpus} CPUs.`);
    lines.push('');
  }
  if (results.range) {
    lines.push(`Recall on the range's planted facts: ${results.range.recall.map((r) => `${r.tool} ${[r.ports && `ports ${r.ports}`, r.protocols && `protocols ${r.protocols}`, r.certFaults && `certificate faults ${r.certFaults}`].filter(Boolean).join(', ')}`).join('; ')}.`);
    lines.push('');
  }
  lines.push('| API and scans (whole local stack in one process; load from another) | figure | target | met |');
  lines.push('|---|---|---|---|');
  const api = results.api;
  if (api) {
    lines.push(`| 50 scans at once: p50 / p95 to completed | ${api.scans.p50Ms} / ${api.scans.p95Ms} ms (${api.scans.completed}/${api.scans.submitted} completed) | p95 ≤ ${api.scans.targetP95Ms} ms | ${api.scans.met ? 'yes' : 'no'} |`);
    lines.push(`| GET /api/audits/{id}, 50 clients: p50 / p99 | ${api.getAudit.p50Ms} / ${api.getAudit.p99Ms} ms | p99 ≤ ${api.getAudit.targetP99Ms} ms | ${api.getAudit.met ? 'yes' : 'no'} |`);
    lines.push(`| POST /api/leads, 50 clients: p50 / p99 | ${api.postLead.p50Ms} / ${api.postLead.p99Ms} ms | p99 ≤ ${api.postLead.targetP99Ms} ms | ${api.postLead.met ? 'yes' : 'no'} |`);
    lines.push(`| one client at a time: GET p99 / POST p99 | ${api.getAuditOneClient.p99Ms} / ${api.postLeadOneClient.p99Ms} ms | | |`);
  } else {
    lines.push('| API bench | not run | | |');
  }
  lines.push('');
  if (results.frontend) {
    const largest = [...results.frontend.files].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 3);
    lines.push(`Frontend: the landing page loads ${kib(results.frontend.landingFirstLoad.gzipBytes)} gzip (${kib(results.frontend.landingFirstLoad.bytes)} raw) before anything else; ${results.frontend.files.length} files in all, largest ${largest.map((f) => `${f.file.replace(/^assets\//, '')} ${kib(f.gzipBytes)} gzip`).join(', ')}.`);
  } else {
    lines.push('Frontend: not built (npm run build), no bundle figures.');
  }
  const failed = Object.entries(results.parts).filter(([, p]) => !p.ok).map(([name]) => name);
  if (failed.length > 0) lines.push('', `Parts that did not run to the end: ${failed.join(', ')}.`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const parts: Record<string, { ok: boolean; seconds: number }> = {};
  const skipRange = process.argv.includes('--skip-range');
  if (!skipRange) parts.range = await run('bench/run.ts', process.argv.slice(2).filter((a) => a !== '--skip-range'));
  parts.api = await run('bench/api.ts');
  if (!existsSync(path.join(DIST, 'index.html'))) {
    parts.build = await new Promise((resolve) => {
      const started = performance.now();
      const child = spawn('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
      child.once('exit', (code) => resolve({ ok: code === 0, seconds: (performance.now() - started) / 1000 }));
    });
  }
  const results = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model.trim() ?? 'unknown CPU', memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    // --skip-range keeps the last range run's figures (their own date is in `range.startedAt`).
    range: parts.range?.ok || skipRange ? await readJson<BenchResults>(path.join(ROOT, 'bench', 'results', 'latest.json')) : undefined,
    api: parts.api.ok ? await readJson<ApiResults>(path.join(ROOT, 'bench', 'results', 'api-latest.json')) : undefined,
    frontend: await bundles(),
    parts,
  };
  const table = summary(results);
  await fs.writeFile(OUT, `${JSON.stringify({ ...results, summary: table }, null, 2)}\n`);
  const readme = await fs.readFile(README, 'utf8');
  const start = readme.indexOf(MARK_START);
  const end = readme.indexOf(MARK_END);
  if (start >= 0 && end > start) {
    await fs.writeFile(README, `${readme.slice(0, start + MARK_START.length)}\n${table}\n${readme.slice(end)}`);
  }
  console.log(`\n${table}\n\nbench: all figures in ${path.relative(ROOT, OUT)}${start >= 0 ? ', the table in README.md' : ''}`);
  return Object.values(parts).every((p) => p.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

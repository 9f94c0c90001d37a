/**
 * The bench's tables: wall times, ratios against the targets of issue 3, and recall (what each
 * tool found of the planted truth). Pure: builds text from the results object.
 */
import type { SweepStats } from '../lambdas/scanner/checks/ports/sweep.js';
import { CERT_FAULTS, type PortFact, type TlsFact } from './parsers.js';

export interface ToolRun {
  tool: 'nmap' | 'testssl' | 'sslscan' | 'whatweb' | 'rampart';
  target: string;
  seconds: number;
  ok: boolean;
  note?: string;
}

export interface PortsRow {
  address: string;
  truth: number[];
  nmap?: PortFact[];
  rampart?: PortFact[];
}

export interface TlsRow {
  endpoint: string;
  truth: { protocols: string[]; certFaults: string[] };
  testssl?: TlsFact;
  sslscan?: TlsFact;
  rampart?: TlsFact;
}

export interface Ratio {
  what: string;
  rampartSeconds: number;
  peer: string;
  peerSeconds: number;
  ratio: number;
  target?: number;
}

/** One run on the firewalled host: nmap -sT or Rampart's sweep, each in its own process. */
export interface FirewalledRun {
  run: number;
  tool: 'nmap' | 'rampart';
  /** nmap: the process's wall time. Rampart: the sweep's own time (the ports check's first step). */
  seconds: number;
  ok: boolean;
  open: number[];
  filtered?: number;
  closed?: number;
  /** Rampart: the sweep and the banners of the open ports (the whole ports check). */
  checkSeconds?: number;
  /** Wall time of the whole process (Rampart's includes starting Node and tsx). */
  processSeconds: number;
  /** Rampart: what the sweep learned (RTT, timeout, retries, window). */
  sweep?: SweepStats;
  note?: string;
}

/** The deep-scan sweep of the firewalled, lossy host against nmap -sT, over several runs. */
export interface FirewalledBench {
  address: string;
  lossPercent: number;
  truth: number[];
  runs: FirewalledRun[];
  median: { nmap?: number; rampartSweep?: number; rampartCheck?: number };
  /** Median Rampart sweep / median nmap; the target is at most `target`. */
  ratio?: number;
  target: number;
  /** Every run of both tools found exactly the planted open ports. */
  sameOpenPorts: boolean;
  /** 1-minute load average before and after the runs (2 shared CPUs: the figures are noisy). */
  load: { before: number; after: number };
}

export interface BenchResults {
  startedAt: string;
  machine: { cpus: number; node: string };
  range: { upMs?: number; startedHere: string[] };
  rampartAvailable: boolean;
  runs: ToolRun[];
  ports: PortsRow[];
  tls: TlsRow[];
  software: { url: string; whatweb?: Record<string, string>; rampart?: Record<string, string> }[];
  ratios: Ratio[];
  recall: { tool: string; ports?: string; protocols?: string; certFaults?: string }[];
  /** Planted facts a peer found and Rampart did not. */
  missedByRampart: string[];
  /** What a tool reported beyond the planted truth (a peer's name check against a bare IP, say). */
  beyondTruth: string[];
  firewalled?: FirewalledBench;
  freeScan?: FreeScanBench;
}

/** One free scan of a range host (bench/free-scan.ts): its wall time and each check's own time. */
export interface FreeScanRun {
  totalMs: number;
  checks: Record<string, number>;
}

/** The free scan's p50 per range host, today's engine against a baseline revision's, run alternately. */
export interface FreeScanBench {
  today: { rev: string };
  baseline?: { rev: string; note?: string };
  rows: {
    target: string;
    today: { runs: FreeScanRun[]; p50Ms?: number };
    baseline?: { runs: FreeScanRun[]; p50Ms?: number };
    /** today p50 / baseline p50; the target is at most `limit` (1.2: within 20%). */
    ratio?: number;
    /** Per check: p50 today, p50 baseline (ms). */
    checks: { name: string; todayMs?: number; baselineMs?: number }[];
  }[];
  limit: number;
  /** Every target within the limit. */
  met?: boolean;
  load: { before: number; after: number };
  failures: string[];
}

/** p50s per target and per check, the ratio today / baseline per target, and the verdict. */
export function summarizeFreeScan(bench: Omit<FreeScanBench, 'met' | 'rows'> & { rows: { target: string; today: FreeScanRun[]; baseline?: FreeScanRun[] }[] }): FreeScanBench {
  const p50 = (runs: FreeScanRun[]) => median(runs.map((r) => r.totalMs));
  const checkP50 = (runs: FreeScanRun[] | undefined, name: string) => (runs ? median(runs.flatMap((r) => (name in r.checks ? [r.checks[name]!] : []))) : undefined);
  const rows = bench.rows.map((row) => {
    const todayP50 = p50(row.today);
    const baselineP50 = row.baseline ? p50(row.baseline) : undefined;
    const names = [...new Set([...row.today, ...(row.baseline ?? [])].flatMap((r) => Object.keys(r.checks)))].sort();
    return {
      target: row.target,
      today: { runs: row.today, p50Ms: todayP50 },
      ...(row.baseline ? { baseline: { runs: row.baseline, p50Ms: baselineP50 } } : {}),
      ...(todayP50 !== undefined && baselineP50 ? { ratio: todayP50 / baselineP50 } : {}),
      checks: names.map((name) => ({ name, todayMs: checkP50(row.today, name), baselineMs: checkP50(row.baseline, name) })),
    };
  });
  const judged = rows.every((r) => r.ratio !== undefined);
  return { ...bench, rows, ...(judged && rows.length > 0 ? { met: rows.every((r) => r.ratio! <= bench.limit) } : {}) };
}

/** The free scan's table: p50 per host today and at the baseline, then each check's p50. */
export function renderFreeScan(bench: FreeScanBench): string {
  const ms = (n?: number) => (n === undefined ? 'n/a' : `${Math.round(n)}`);
  const out: string[] = [];
  out.push(
    `Free scan (active, top 100 ports, 40 s deadline) on the range's web hosts: today (${bench.today.rev}) against ${bench.baseline ? `baseline ${bench.baseline.rev}` : 'no baseline'}${bench.baseline?.note ? ` (${bench.baseline.note})` : ''}, alternating; load ${bench.load.before.toFixed(2)} → ${bench.load.after.toFixed(2)}`,
  );
  out.push(
    table(
      ['target', 'runs', 'p50 today ms', 'p50 baseline ms', 'ratio', `within ${Math.round((bench.limit - 1) * 100)}%`],
      bench.rows.map((r) => [
        r.target,
        `${r.today.runs.length}/${r.baseline?.runs.length ?? 0}`,
        ms(r.today.p50Ms),
        ms(r.baseline?.p50Ms),
        r.ratio === undefined ? 'n/a' : r.ratio.toFixed(3),
        r.ratio === undefined ? 'n/a' : r.ratio <= bench.limit ? 'yes' : 'NO',
      ]),
    ),
  );
  for (const row of bench.rows) {
    out.push('', `${row.target}: each check's p50 (ms), today / baseline`);
    out.push(table(['check', 'today', 'baseline'], row.checks.map((c) => [c.name, ms(c.todayMs), ms(c.baselineMs)])));
  }
  if (bench.failures.length > 0) out.push('', `Failed runs:\n${bench.failures.map((f) => `  - ${f}`).join('\n')}`);
  return out.join('\n');
}

export function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The medians, the ratio and whether every run found exactly the truth. */
export function summarizeFirewalled(bench: Omit<FirewalledBench, 'median' | 'ratio' | 'sameOpenPorts'>): FirewalledBench {
  const ok = (tool: FirewalledRun['tool']) => bench.runs.filter((r) => r.tool === tool && r.ok);
  const nmap = median(ok('nmap').map((r) => r.seconds));
  const rampartSweep = median(ok('rampart').map((r) => r.seconds));
  const rampartCheck = median(ok('rampart').flatMap((r) => (r.checkSeconds === undefined ? [] : [r.checkSeconds])));
  const truth = [...bench.truth].sort((a, b) => a - b).join(',');
  const sameOpenPorts = bench.runs.length > 0 && bench.runs.every((r) => r.ok && [...r.open].sort((a, b) => a - b).join(',') === truth);
  return {
    ...bench,
    median: { nmap, rampartSweep, rampartCheck },
    ...(nmap && rampartSweep !== undefined ? { ratio: rampartSweep / nmap } : {}),
    sameOpenPorts,
  };
}

/** The firewalled host's table: each run, then the medians and the ratio against the target. */
export function renderFirewalled(bench: FirewalledBench): string {
  const out: string[] = [];
  const runs = Math.max(0, ...bench.runs.map((r) => r.run));
  out.push(
    `Firewalled lossy host ${bench.address} (policy drop but ${bench.truth.join(', ')}; ${bench.lossPercent}% of packets dropped): deep-scan port sweep vs nmap -n -sT --top-ports 1000, ${runs} runs, load ${bench.load.before.toFixed(2)} → ${bench.load.after.toFixed(2)}`,
  );
  out.push(
    table(
      ['run', 'tool', 'seconds', 'process s', 'open ports found', 'filtered', 'status'],
      bench.runs.map((r) => [
        String(r.run),
        r.tool === 'nmap' ? 'nmap -sT' : 'rampart sweep',
        r.seconds.toFixed(2),
        r.processSeconds.toFixed(2),
        r.ok ? r.open.join(', ') || '(none)' : 'n/a',
        r.filtered === undefined ? '' : String(r.filtered),
        r.ok ? 'ok' : `FAILED ${r.note ?? ''}`.trim(),
      ]),
    ),
  );
  const s = (n?: number) => (n === undefined ? 'n/a' : `${n.toFixed(2)} s`);
  out.push(
    `median: nmap ${s(bench.median.nmap)}, Rampart sweep ${s(bench.median.rampartSweep)} (with banners ${s(bench.median.rampartCheck)}); ratio ${bench.ratio === undefined ? 'n/a' : bench.ratio.toFixed(3)} (target <= ${bench.target}: ${bench.ratio !== undefined && bench.ratio <= bench.target ? 'met' : 'MISSED'}); same open ports in every run: ${bench.sameOpenPorts ? 'yes' : 'NO'}`,
  );
  return out.join('\n');
}

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const describePort = (facts: PortFact[] | undefined, port: number) => {
  if (!facts) return 'n/a';
  const fact = facts.find((f) => f.port === port);
  if (!fact) return '-';
  return ['open', fact.product, fact.version].filter(Boolean).join(' ');
};

/** A planted fact: found (yes) or MISSED; a fact not planted: reported by the tool, or not (no). */
const mark = (fact: TlsFact | undefined, has: (f: TlsFact) => boolean, planted: boolean, judged = true) => {
  if (!fact) return 'n/a';
  if (!judged) return '(not judged)';
  if (planted) return has(fact) ? 'yes' : 'MISSED';
  return has(fact) ? 'reported' : 'no';
};

/** Recall of each tool against the planted truth (and the extra open ports the range did not plant). */
export function computeRecall(results: Pick<BenchResults, 'ports' | 'tls'>): Pick<BenchResults, 'recall' | 'missedByRampart' | 'beyondTruth'> {
  const count = (hits: number, total: number) => `${hits}/${total}`;
  const recall: BenchResults['recall'] = [];
  for (const tool of ['nmap', 'rampart'] as const) {
    const rows = results.ports.filter((r) => r[tool]);
    if (rows.length === 0) continue;
    const total = rows.reduce((n, r) => n + r.truth.length, 0);
    const hits = rows.reduce((n, r) => n + r.truth.filter((p) => r[tool]!.some((f) => f.port === p)).length, 0);
    recall.push({ tool, ports: count(hits, total) });
  }
  for (const tool of ['testssl', 'sslscan', 'rampart'] as const) {
    const rows = results.tls.filter((r) => r[tool]);
    if (rows.length === 0) continue;
    const protocolsTotal = rows.reduce((n, r) => n + r.truth.protocols.length, 0);
    const protocolsHit = rows.reduce((n, r) => n + r.truth.protocols.filter((p) => r[tool]!.protocols.includes(p)).length, 0);
    const judged = (r: TlsRow) => r.truth.certFaults.filter((f) => r[tool]!.faultsReported.includes(f as never));
    const faultsTotal = rows.reduce((n, r) => n + judged(r).length, 0);
    const notJudged = rows.reduce((n, r) => n + r.truth.certFaults.length - judged(r).length, 0);
    const faultsHit = rows.reduce((n, r) => n + judged(r).filter((f) => r[tool]!.certFaults.includes(f as never)).length, 0);
    const existing = recall.find((r) => r.tool === tool);
    const entry = { protocols: count(protocolsHit, protocolsTotal), certFaults: `${count(faultsHit, faultsTotal)}${notJudged ? ` (+${notJudged} not judged)` : ''}` };
    if (existing) Object.assign(existing, entry);
    else recall.push({ tool, ...entry });
  }
  const missedByRampart: string[] = [];
  const beyondTruth: string[] = [];
  for (const row of results.ports) {
    for (const fact of row.nmap ?? []) {
      if (row.rampart && !row.rampart.some((f) => f.port === fact.port)) missedByRampart.push(`${row.address}:${fact.port} open (nmap)`);
    }
    for (const tool of ['nmap', 'rampart'] as const) {
      for (const fact of row[tool] ?? []) if (!row.truth.includes(fact.port)) beyondTruth.push(`${row.address}:${fact.port} open, not planted (${tool})`);
    }
  }
  for (const row of results.tls) {
    for (const tool of ['testssl', 'sslscan', 'rampart'] as const) {
      const fact = row[tool];
      if (!fact) continue;
      for (const p of fact.protocols) if (!row.truth.protocols.includes(p)) beyondTruth.push(`${row.endpoint} ${p} offered, not planted (${tool})`);
      for (const f of fact.certFaults) if (!row.truth.certFaults.includes(f)) beyondTruth.push(`${row.endpoint} certificate ${f}, not planted (${tool})`);
      if (tool === 'rampart' || !row.rampart) continue;
      for (const p of fact.protocols) if (row.truth.protocols.includes(p) && !row.rampart.protocols.includes(p)) missedByRampart.push(`${row.endpoint} ${p} offered (${tool})`);
      for (const f of fact.certFaults) if (row.truth.certFaults.includes(f) && !row.rampart.certFaults.includes(f)) missedByRampart.push(`${row.endpoint} certificate ${f} (${tool})`);
    }
  }
  return { recall, missedByRampart: [...new Set(missedByRampart)], beyondTruth: [...new Set(beyondTruth)] };
}

export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  out.push(`Rampart bench on the scan range — ${results.startedAt}, ${results.machine.cpus} CPUs, Node ${results.machine.node}`);
  if (results.range.upMs !== undefined) out.push(`range: ${results.range.startedHere.length ? `started ${results.range.startedHere.join(', ')}` : 'already up'} (${results.range.upMs} ms)`);
  if (!results.rampartAvailable) out.push('rampart CLI not available yet: the Rampart columns are empty');

  out.push('', 'Wall time per tool and target (seconds, one run each, one at a time)');
  out.push(table(['tool', 'target', 'seconds', 'status'], results.runs.map((r) => [r.tool, r.target, r.seconds.toFixed(2), r.ok ? 'ok' : `FAILED ${r.note ?? ''}`.trim()])));

  out.push('', 'Ratios (Rampart / peer; lower is faster)');
  out.push(
    table(
      ['what', 'rampart s', 'peer', 'peer s', 'ratio', 'target'],
      results.ratios.map((r) => [
        r.what,
        r.rampartSeconds.toFixed(2),
        r.peer,
        r.peerSeconds.toFixed(2),
        r.ratio.toFixed(3),
        r.target === undefined ? '' : `${r.ratio <= r.target ? 'met' : 'MISSED'} (<= ${r.target})`,
      ]),
    ),
  );

  out.push('', 'Open ports (planted truth vs found; product and version as each tool read them)');
  const portRows: string[][] = [];
  for (const row of results.ports) {
    const ports = [...new Set([...row.truth, ...(row.nmap ?? []).map((f) => f.port), ...(row.rampart ?? []).map((f) => f.port)])].sort((a, b) => a - b);
    for (const port of ports) {
      portRows.push([`${row.address}:${port}`, row.truth.includes(port) ? 'planted' : 'extra', describePort(row.nmap, port), describePort(row.rampart, port)]);
    }
  }
  out.push(table(['port', 'truth', 'nmap', 'rampart'], portRows));

  out.push('', 'TLS: protocols offered and certificate faults (planted truth vs found)');
  const tlsRows: string[][] = [];
  for (const row of results.tls) {
    const protocols = [...new Set([...row.truth.protocols, ...(row.testssl?.protocols ?? []), ...(row.sslscan?.protocols ?? []), ...(row.rampart?.protocols ?? [])])];
    for (const p of protocols) {
      const planted = row.truth.protocols.includes(p);
      tlsRows.push([row.endpoint, p, planted ? 'offered' : 'not planted', ...(['testssl', 'sslscan', 'rampart'] as const).map((t) => mark(row[t], (f) => f.protocols.includes(p), planted))]);
    }
    for (const fault of CERT_FAULTS) {
      const planted = row.truth.certFaults.includes(fault);
      const anyFound = (['testssl', 'sslscan', 'rampart'] as const).some((t) => row[t]?.certFaults.includes(fault));
      if (!planted && !anyFound) continue;
      tlsRows.push([
        row.endpoint,
        `cert ${fault}`,
        planted ? 'planted' : 'not planted',
        ...(['testssl', 'sslscan', 'rampart'] as const).map((t) => mark(row[t], (f) => f.certFaults.includes(fault), planted, row[t]?.faultsReported.includes(fault) ?? true)),
      ]);
    }
  }
  out.push(table(['endpoint', 'fact', 'truth', 'testssl', 'sslscan', 'rampart'], tlsRows));

  if (results.software.length > 0) {
    out.push('', 'Software identified on the web hosts (whatweb -a 3 vs Rampart; for issue 4)');
    out.push(
      table(
        ['url', 'whatweb', 'rampart'],
        results.software.map((s) => [
          s.url,
          s.whatweb ? Object.entries(s.whatweb).map(([k, v]) => (v ? `${k}[${v}]` : k)).join(' ') : 'n/a',
          s.rampart ? Object.entries(s.rampart).map(([k, v]) => (v ? `${k}[${v}]` : k)).join(' ') : 'n/a',
        ]),
      ),
    );
  }

  if (results.firewalled) out.push('', renderFirewalled(results.firewalled));
  if (results.freeScan) out.push('', renderFreeScan(results.freeScan));

  out.push('', 'Recall against the planted truth');
  out.push(table(['tool', 'open ports', 'protocols', 'cert faults'], results.recall.map((r) => [r.tool, r.ports ?? '', r.protocols ?? '', r.certFaults ?? ''])));
  if (results.rampartAvailable) {
    out.push('', results.missedByRampart.length === 0 ? 'Rampart missed nothing planted that a peer found.' : `Planted, found by a peer, missed by Rampart:\n${results.missedByRampart.map((m) => `  - ${m}`).join('\n')}`);
  }
  if (results.beyondTruth.length > 0) {
    out.push('', `Reported beyond the planted truth (peers get bare IPs, so their name checks fail):\n${results.beyondTruth.map((m) => `  - ${m}`).join('\n')}`);
  }
  return out.join('\n');
}

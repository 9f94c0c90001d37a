import { describe, expect, it } from 'vitest';
import { analyzeAddresses, dnsCheck } from '../../lambdas/scanner/checks/dns.check.js';
import { runCheck, scan, TargetRefusedError } from '../../lambdas/scanner/scan.js';
import type { ScanResolver } from '../../lambdas/scanner/resolver.js';
import type { CheckDefinition } from '../../lambdas/scanner/check.js';
import { offlineNet } from '../support/offline-net.js';

const settings = { resolvers: [], dnsTimeoutMs: 1000, allowPrivateTargets: false };
/** A pure check that reports the pinned addresses it was given. */
const observe: CheckDefinition = { name: 'observe', budgetMs: 1000, needsAddress: true, passive: 'runs', run: async (ctx) => ({ findings: [], data: { addresses: ctx.addresses } }) };
const net = offlineNet;
const target = { url: 'https://shop.example.test/', host: 'shop.example.test' };
const resolverFor = (ipv4: string[], ipv6: string[] = []): ScanResolver => ({
  resolve4: async () => ipv4,
  resolve6: async () => ipv6,
});

describe('dns analysis', () => {
  it('reports a host without addresses as a high issue', () => {
    const { findings } = analyzeAddresses('gone.example', []);
    expect(findings.map((f) => [f.id, f.severity])).toEqual([['dns.resolve.no-address', 'high']]);
  });

  it('notes a missing AAAA as an observation only', () => {
    const { findings, data } = analyzeAddresses('shop.example', ['93.184.216.34']);
    expect(findings.map((f) => [f.id, f.severity])).toEqual([['dns.resolve.no-ipv6', 'info']]);
    expect(data).toEqual({ host: 'shop.example', ipv4: ['93.184.216.34'], ipv6: [] });
  });
});

describe('scan engine', () => {
  it('scores a public target and reports progress per check', async () => {
    const progress: string[] = [];
    const report = await scan(target, settings, { resolver: resolverFor(['93.184.216.34']), net, checks: [observe], onProgress: (c) => void progress.push(c.name) });
    expect(progress).toEqual(['observe']);
    expect(report.checks[0]?.data).toEqual({ addresses: ['93.184.216.34'] });
    expect(report.addresses).toEqual(['93.184.216.34']);
    expect([report.score, report.grade, report.riskLevel]).toEqual([100, 'A', 'low']);
  });

  it('refuses a target that resolves to a private address', async () => {
    await expect(scan(target, settings, { resolver: resolverFor(['10.0.0.5']), net, checks: [observe] })).rejects.toBeInstanceOf(TargetRefusedError);
  });

  it('scans a private target when the operator allows it', async () => {
    const report = await scan(target, { ...settings, allowPrivateTargets: true }, { resolver: resolverFor(['127.0.0.1']), net, checks: [observe] });
    expect(report.addresses).toEqual(['127.0.0.1']);
  });

  it('gives no grade when the target cannot be resolved, and says why', async () => {
    const failing: ScanResolver = { resolve4: async () => Promise.reject(Object.assign(new Error('queryA ETIMEOUT'), { code: 'ETIMEOUT' })), resolve6: async () => [] };
    await expect(scan(target, settings, { resolver: failing, net, checks: [dnsCheck] })).rejects.toMatchObject({
      code: 'target_unresolvable',
      message: 'We could not look up shop.example.test (ETIMEOUT: queryA ETIMEOUT). Please try again in a few minutes.',
    });
    await expect(scan(target, settings, { resolver: resolverFor([]), net, checks: [dnsCheck] })).rejects.toMatchObject({
      code: 'target_unresolvable',
      message: 'shop.example.test does not resolve to any address. Check the website address and try again.',
    });
  });

  it('turns a failing check into a check error, not a failed scan', async () => {
    const broken: CheckDefinition = { name: 'broken', budgetMs: 1000, needsAddress: true, passive: 'runs', run: () => Promise.reject(Object.assign(new Error('queryA ETIMEOUT'), { code: 'ETIMEOUT' })) };
    const report = await scan(target, settings, { resolver: resolverFor(['93.184.216.34']), net, checks: [broken] });
    expect(report.checks[0]).toMatchObject({ name: 'broken', status: 'error', reason: 'ETIMEOUT: queryA ETIMEOUT' });
  });

  it('stops waiting for a check at its budget', async () => {
    let aborted = false;
    const result = await runCheck('slow', 20, (signal) => new Promise(() => signal.addEventListener('abort', () => (aborted = true))));
    expect(result).toMatchObject({ name: 'slow', status: 'timeout', reason: 'No answer within 20 ms', findings: [] });
    expect(aborted).toBe(true);
  });

  it('ends every check at the scan deadline', async () => {
    const slow = { name: 'slow', budgetMs: 5_000, needsAddress: false, passive: 'runs' as const, run: () => new Promise<never>(() => undefined) };
    const report = await scan(target, settings, { resolver: resolverFor(['93.184.216.34']), net, checks: [slow], deadlineMs: 50 });
    expect(report.checks).toEqual([expect.objectContaining({ name: 'slow', status: 'timeout', reason: 'The scan deadline passed' })]);
  });

  it("lets a check read another check's result, whatever their order", async () => {
    const first = { name: 'first', budgetMs: 1000, needsAddress: false, passive: 'runs' as const, run: async () => ({ findings: [], data: { n: 1 } }) };
    const second = {
      name: 'second', budgetMs: 1000, needsAddress: false, passive: 'runs' as const,
      run: async (ctx: { resultOf(n: string): Promise<{ data?: Record<string, unknown> } | undefined> }) => ({ findings: [], data: { saw: (await ctx.resultOf('first'))?.data?.n } }),
    };
    const report = await scan(target, settings, { resolver: resolverFor(['93.184.216.34']), net, checks: [second, first] });
    expect(report.checks.map((c) => [c.name, c.status, c.data])).toEqual([
      ['second', 'ok', { saw: 1 }],
      ['first', 'ok', { n: 1 }],
    ]);
  });
});

describe('scan modes (DECISIONS "Scan modes")', () => {
  const finding = (id: string) => ({ id, check: 'web', title: id, severity: 'low' as const, category: 'Web', description: '', recommendation: '' });
  /** A check that records which network calls it was let through. */
  const recordingNet = () => {
    const calls: string[] = [];
    const ok = (what: string) => async () => {
      calls.push(what);
      return {} as never;
    };
    const recorded = {
      dns: { query: ok('dns'), axfr: ok('axfr') },
      tcp: { probe: async (_address: string, port: number) => (calls.push(`tcp:${port}`), { state: 'closed' as const, port, durationMs: 0 }) },
      tls: { handshake: async (_address: string, port: number) => (calls.push(`tls:${port}`), { failed: 'test', connected: false }) },
      http: { request: ok('http') },
      smtp: { starttls: ok('smtp') },
    } as unknown as Parameters<typeof scan>[2] extends infer O ? NonNullable<O extends { net?: infer N } ? N : never> : never;
    return { calls, net: recorded };
  };
  const prober: CheckDefinition = {
    name: 'prober',
    budgetMs: 1000,
    needsAddress: true,
    passive: 'limited',
    run: async (ctx) => {
      const tried = await Promise.allSettled([
        ctx.net.tcp.probe('93.184.216.34', 22, { timeoutMs: 10 }),
        ctx.net.dns.axfr('example.test', { host: '93.184.216.34', port: 53 }),
        ctx.net.tls.handshake('93.184.216.34', 8443, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 10 }),
        ctx.net.tls.handshake('93.184.216.34', 443, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 10 }),
        ctx.net.http.request('https://shop.example.test/'),
      ]);
      return { findings: [], data: { refused: tried.filter((t) => t.status === 'rejected').length } };
    },
  };
  const activeOnly: CheckDefinition = { name: 'ports', budgetMs: 1000, needsAddress: true, passive: 'skipped', run: async () => ({ findings: [finding('p')] }) };

  it('passive: active-only checks are skipped with the reason, the network refuses active probes, and the report is partial', async () => {
    const { calls, net: recorded } = recordingNet();
    const report = await scan(target, settings, { resolver: resolverFor(['93.184.216.34']), net: recorded, checks: [prober, activeOnly], mode: 'passive' });
    expect(report.mode).toBe('passive');
    expect(report.checks.find((c) => c.name === 'ports')).toMatchObject({ status: 'skipped', findings: [] });
    expect(report.checks.find((c) => c.name === 'prober')?.data).toEqual({ refused: 3 });
    // Only the browser's own port and HTTP went out: no TCP connect, no AXFR, no TLS on 8443.
    expect(calls.sort()).toEqual(['http', 'tls:443']);
    expect(report.partial).toBe(true);
    expect(report.notChecked).toEqual([expect.objectContaining({ check: 'ports', title: 'Open ports and services', cause: 'passive' })]);
    // Nothing was found, but a partial report never gets the top grade.
    expect([report.score, report.grade]).toEqual([89, 'B']);
  });

  it('active: every check runs and every probe goes out', async () => {
    const { calls, net: recorded } = recordingNet();
    const report = await scan(target, settings, { resolver: resolverFor(['93.184.216.34']), net: recorded, checks: [prober, activeOnly], mode: 'active' });
    expect(calls.sort()).toEqual(['axfr', 'http', 'tcp:22', 'tls:443', 'tls:8443']);
    expect(report.partial).toBe(false);
    expect([report.score, report.grade]).toEqual([95, 'A']);
  });

  it('a check that ended in error or timeout counts as not checked: no A for a site whose web checks did not run', async () => {
    const broken: CheckDefinition = { name: 'http', budgetMs: 1000, needsAddress: true, passive: 'runs', run: () => Promise.reject(Object.assign(new Error('Parse Error: Invalid header value char'), { code: 'HPE_INVALID_HEADER_TOKEN' })) };
    const report = await scan(target, settings, { resolver: resolverFor(['93.184.216.34']), net, checks: [observe, broken], mode: 'active' });
    expect(report.partial).toBe(true);
    expect(report.notChecked).toEqual([expect.objectContaining({ check: 'http', cause: 'error', reason: 'HPE_INVALID_HEADER_TOKEN: Parse Error: Invalid header value char' })]);
    expect([report.score, report.grade]).toEqual([89, 'B']);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../lambdas/scanner/check.js';
import { analyzeSubdomainSurface, probeSubdomainSurface, type SurfaceEntry } from '../../../lambdas/scanner/checks/subdomain-surface.check.js';

const now = new Date('2026-05-01T00:00:00Z');
const secure: SurfaceEntry = {
  name: 'shop.example.com',
  address: '203.0.113.5',
  tls: { ok: true, protocol: 'TLSv1.3', trusted: true, nameMatches: true, notAfter: '2026-09-01T00:00:00.000Z' },
  http: { ok: true, url: 'https://shop.example.com/', status: 200, headers: { hsts: 'max-age=31536000', csp: "default-src 'self'; frame-ancestors 'none'", xContentTypeOptions: 'nosniff' } },
};

describe('subdomain surface analysis (paid audits)', () => {
  it('finds nothing on a subdomain with valid TLS and the headers', () => {
    expect(analyzeSubdomainSurface({ entries: [secure], candidates: 1 }, now).findings).toEqual([]);
  });

  it('reports each kind of problem once, naming the subdomains', () => {
    // Prepare
    const entries: SurfaceEntry[] = [
      { ...secure, name: 'old.example.com', tls: { ...secure.tls, protocol: 'TLSv1', notAfter: '2026-04-01T00:00:00.000Z' } },
      { ...secure, name: 'self.example.com', tls: { ...secure.tls, trusted: false } },
      { name: 'plain.example.com', address: '203.0.113.6', tls: { ok: false, error: 'ECONNREFUSED' }, http: { ok: true, status: 200, headers: {} } },
      { ...secure, name: 'bare.example.com', http: { ok: true, status: 200, headers: {} } },
    ];

    // Act
    const { findings, data } = analyzeSubdomainSurface({ entries, candidates: 4 }, now);

    // Assess
    const byId = Object.fromEntries(findings.map((f) => [f.id, [f.severity, f.evidence]]));
    expect(byId).toEqual({
      'subdomains.surface.no-https': ['medium', 'plain.example.com'],
      'subdomains.surface.certificate-expired': ['high', 'old.example.com'],
      'subdomains.surface.certificate-untrusted': ['medium', 'self.example.com'],
      'subdomains.surface.old-tls': ['medium', 'old.example.com'],
      'subdomains.surface.hsts-missing': ['low', 'bare.example.com'],
      'subdomains.surface.csp-missing': ['low', 'plain.example.com, bare.example.com'],
      'subdomains.surface.nosniff-missing': ['low', 'plain.example.com, bare.example.com'],
      'subdomains.surface.framing-allowed': ['low', 'plain.example.com, bare.example.com'],
    });
    expect(findings.every((f) => f.check === 'subdomain-surface')).toBe(true);
    expect(data).toMatchObject({ examined: 4, candidates: 4 });
  });
});

describe('subdomain surface: a subdomain behind a wall (DECISIONS "Blocked is a result")', () => {
  const challenge = JSON.parse(readFileSync(new URL('../../fixtures/blocks/cloudflare-managed-challenge.json', import.meta.url), 'utf8')) as {
    status: number;
    headers: Record<string, string>;
    body: string;
  };

  it('judges no header of a home page that is Cloudflare’s challenge, and lists that subdomain as not checked (blocked, Cloudflare)', async () => {
    // Prepare: the subdomains check found two answering names; one answers with the challenge, one with its own page
    const pages: Record<string, { status: number; headers: Record<string, string[]>; body: string }> = {
      'walled.example.com': { status: challenge.status, headers: Object.fromEntries(Object.entries(challenge.headers).map(([k, v]) => [k, [v]])), body: challenge.body },
      'bare.example.com': { status: 200, headers: { 'content-type': ['text/html'] }, body: '<!doctype html><title>Bare</title>' },
    };
    const context = {
      target: { url: 'https://example.com/', host: 'example.com' },
      settings: { resolvers: [], dnsTimeoutMs: 500, allowPrivateTargets: true, excludePorts: [2024] },
      signal: new AbortController().signal,
      resultOf: async () => ({
        name: 'subdomains',
        status: 'ok' as const,
        findings: [],
        data: { list: Object.keys(pages).map((name, i) => ({ name, addresses: [`203.0.113.${10 + i}`], answers: true })) },
      }),
      net: {
        tls: { handshake: async () => ({ failed: 'ECONNREFUSED' }) },
        http: {
          request: async (url: string) => {
            const host = new URL(url).hostname;
            return { url, redirects: [], address: '203.0.113.10', ...pages[host]! };
          },
        },
      },
    } as unknown as CheckContext;

    // Act
    const { findings, data } = analyzeSubdomainSurface(await probeSubdomainSurface(context), now);

    // Assess
    for (const finding of findings.filter((f) => f.category === 'headers')) expect(finding.evidence).toBe('bare.example.com');
    expect(findings.some((f) => f.id === 'subdomains.surface.csp-missing')).toBe(true);
    expect(data?.notChecked).toEqual([
      {
        part: 'Security headers of walled.example.com',
        cause: 'blocked',
        reason: 'Their home pages answered the scanner with a bot challenge or a block page from Cloudflare, not their own page.',
      },
    ]);
  });
});

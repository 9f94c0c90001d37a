import { describe, expect, it } from 'vitest';
import { analyzeSubdomainSurface, type SurfaceEntry } from '../../../lambdas/scanner/checks/subdomain-surface.check.js';

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

import type { Audit, CheckResult } from '../../lambdas/domain/audit.js';
import type { SiteBlock } from '../../lambdas/scanner/site-access/block.js';

// A blocked audit as the engine stores it (DECISIONS "Blocked is a result"): each page-reading
// check the site kept out is skipped with its cause and the wall in data.blocked; the others ran.

/** Cloudflare's managed challenge, as detectBlock reports it for https://shop.example.test/. */
export const cloudflareChallenge: SiteBlock = {
  kind: 'challenge',
  vendor: 'cloudflare',
  vendorName: 'Cloudflare',
  status: 403,
  url: 'https://shop.example.test/',
  reason: "Cloudflare answered the scanner with a bot challenge (403, cf-mitigated: challenge) instead of the site's page.",
};

/** A page-reading check the site kept out: skipped, with the wall it met. */
export const keptOut = (name: string, block: SiteBlock = cloudflareChallenge, cause: 'blocked' | 'rate_limited' = 'blocked'): CheckResult => ({
  name,
  status: 'skipped',
  cause,
  durationMs: 0,
  reason: block.reason,
  findings: [],
  data: { blocked: block },
});

/** A completed active audit of https://shop.example.test/ with these checks (scored 89, B: a partial report's cap). */
export const auditOf = (checks: CheckResult[], extra: Partial<Audit> = {}): Audit => ({
  id: '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d',
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:20.000Z',
  score: 89,
  grade: 'B',
  riskLevel: 'low',
  mode: 'active',
  checks,
  ...extra,
});

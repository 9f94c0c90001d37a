import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lambdas/domain/errors.js';
import { clientOverview, colourChannels, logoBytes, parseBranding, roleInClient } from '../../lambdas/domain/it-providers.js';
import type { IssueHistory } from '../../lambdas/domain/time-to-fix.js';

const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const now = new Date('2026-11-27T00:00:00Z');

/** A PNG header claiming width × height (signature, IHDR, IEND). */
function pngOf(width: number, height: number): string {
  const bytes = Buffer.from(TINY_PNG.split(',')[1]!, 'base64');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

describe('branding validation', () => {
  it('accepts a name, a #rrggbb colour (lower-cased) and a small PNG, and versions what it saved', () => {
    const branding = parseBranding({ name: '  Acme IT ', colour: '#0F766E', logo: TINY_PNG }, now);
    const renamed = parseBranding({ name: 'Acme IT Pty', colour: '#0F766E', logo: TINY_PNG }, now);

    // The logo is kept re-encoded (issue 28 finding 4): a PNG data URL of the same 1×1 image, not the bytes sent.
    expect(branding).toMatchObject({ name: 'Acme IT', colour: '#0f766e', logo: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/), updatedAt: now.toISOString() });
    expect(branding.logo).toBe(parseBranding({ name: 'Acme IT', colour: '#0f766e', logo: branding.logo }, now).logo);
    expect(branding.version).toMatch(/^[\w-]{16}$/);
    expect(renamed.version).not.toBe(branding.version);
    expect(parseBranding({ name: 'Acme IT', colour: '#0f766e' }, now).logo).toBeNull();
  });

  it.each([
    ['a named colour', { name: 'Acme', colour: 'red' }],
    ['a short hex colour', { name: 'Acme', colour: '#fff' }],
    ['an empty name', { name: '  ', colour: '#000000' }],
    ['a name with a line break', { name: 'Acme\nBcc: x', colour: '#000000' }],
    ['a remote logo URL', { name: 'Acme', colour: '#000000', logo: 'https://evil.example/logo.png' }],
    ['an SVG logo', { name: 'Acme', colour: '#000000', logo: `data:image/svg+xml;base64,${Buffer.from('<svg onload="x"/>').toString('base64')}` }],
    ['a GIF labelled PNG', { name: 'Acme', colour: '#000000', logo: `data:image/png;base64,${Buffer.from('GIF89a'.padEnd(60, '\0')).toString('base64')}` }],
    ['a PNG too wide', { name: 'Acme', colour: '#000000', logo: pngOf(5000, 10) }],
    ['a PNG of zero height', { name: 'Acme', colour: '#000000', logo: pngOf(10, 0) }],
    ['an unknown field', { name: 'Acme', colour: '#000000', url: 'https://x' }],
  ])('refuses %s', (_name, input) => {
    expect(() => parseBranding(input, now)).toThrow(ValidationError);
  });

  it('refuses a PNG over the size limit', () => {
    const big = Buffer.alloc(70 * 1024);
    Buffer.from(TINY_PNG.split(',')[1]!, 'base64').copy(big);
    expect(() => logoBytes(`data:image/png;base64,${big.toString('base64')}`)).toThrow(ValidationError);
  });

  it('turns #rrggbb into 0–1 channels', () => {
    expect(colourChannels('#ff8000')).toEqual({ r: 1, g: 128 / 255, b: 0 });
  });

  it("gives a provider's owner and admins admin in the client, its viewers viewer, never owner", () => {
    expect([roleInClient('owner'), roleInClient('admin'), roleInClient('viewer')]).toEqual(['admin', 'admin', 'viewer']);
  });
});

describe('overview aggregation', () => {
  const link = { clientId: 'c1', providerId: 'p1', linkedAt: '2026-01-01T00:00:00Z', clientName: 'Bakery', providerName: 'Acme' };
  const occurrence = (firstSeenAt: string, fixedAt?: string) => ({
    findingId: `f-${firstSeenAt}`,
    title: 'An issue',
    severity: 'high' as const,
    category: 'tls',
    check: 'tls',
    firstSeenAt,
    firstSeenAuditId: 'a',
    lastSeenAt: firstSeenAt,
    lastSeenAuditId: 'a',
    reopened: 0,
    ...(fixedAt ? { fixedAt, fixedAuditId: 'b' } : {}),
  });

  it("counts each domain's open issues past their target, takes the worst latest grade, and leaves unscanned domains ungraded", () => {
    const histories: IssueHistory[] = [
      { domain: 'b.example', lastScanAt: null, lastAuditId: null, occurrences: [occurrence('2026-06-01T00:00:00Z'), occurrence('2026-11-26T00:00:00Z'), occurrence('2026-06-02T00:00:00Z', '2026-06-03T00:00:00Z')] },
      { domain: 'gone.example', lastScanAt: null, lastAuditId: null, occurrences: [occurrence('2026-01-01T00:00:00Z')] },
    ];
    const latest = new Map([
      ['a.example', { auditId: 'x', score: 95, grade: 'A' as const, completedAt: '2026-11-20T00:00:00Z' }],
      ['b.example', { auditId: 'y', score: 55, grade: 'D' as const, completedAt: '2026-11-21T00:00:00Z' }],
    ]);

    const overview = clientOverview(link, ['c.example', 'b.example', 'a.example'], latest, histories, now);

    expect(overview).toEqual({
      orgId: 'c1',
      name: 'Bakery',
      linkedAt: link.linkedAt,
      domains: [
        { domain: 'a.example', grade: 'A', score: 95, lastScanAt: '2026-11-20T00:00:00Z', overdue: 0 },
        { domain: 'b.example', grade: 'D', score: 55, lastScanAt: '2026-11-21T00:00:00Z', overdue: 1 },
        { domain: 'c.example', grade: null, score: null, lastScanAt: null, overdue: 0 },
      ],
      overdue: 1,
      worstGrade: 'D',
    });
  });

  it('has no grade for a client without scans', () => {
    expect(clientOverview(link, [], new Map(), [], now)).toMatchObject({ domains: [], overdue: 0, worstGrade: null });
  });
});

/**
 * Rampart's engine on the range, through `scanRangeHost` (engine.ts): the range's bind9 is the
 * only resolver, port 2024 is excluded, private targets are allowed. Scanner findings are asserted
 * here by value against `rangeFacts` / `rangeTlsEndpoints` as the checks land.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { scanRangeHost } from './engine.js';
import { rangeLayout } from './layout.js';
import { assertRangeUp } from './range.js';

beforeAll(async () => {
  await assertRangeUp();
});

describe("Rampart's engine on the range", () => {
  it('resolves a range name through the range DNS only and pins its address', async () => {
    // Act
    const report = await scanRangeHost('https://wp.example.test');

    // Assess
    expect(report.target.host).toBe('wp.example.test');
    expect(report.addresses).toEqual([rangeLayout.hosts.apache.address]);
    expect(report.checks.length).toBeGreaterThan(0);
  });
});

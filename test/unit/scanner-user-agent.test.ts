import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../lambdas/config.js';
import { scannerPageUrl, scannerUserAgent } from '../../lambdas/domain/product.js';
import { parseWebTarget } from '../../lambdas/domain/target.js';
import { httpCheck } from '../../lambdas/scanner/checks/http.check.js';
import { DEFAULT_USER_AGENT } from '../../lambdas/scanner/net/http-client.js';
import { scan } from '../../lambdas/scanner/scan.js';
import { loopbackServers } from '../support/loopback-servers.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

const HOST = 'ua.example.test';
const servers = loopbackServers();
const seen: { path: string; userAgent: string | undefined }[] = [];
let port: number;
let zone: ZoneServer;

beforeAll(async () => {
  port = await servers.listen(
    http.createServer((request, response) => {
      seen.push({ path: request.url ?? '', userAgent: request.headers['user-agent'] });
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><p>Hello</p>');
    }),
  );
  zone = await startZoneServer({ records: [{ name: HOST, type: 'A', ttl: 60, data: '127.0.0.1' }] });
});

afterAll(async () => {
  await servers.closeAll();
  await zone.close();
});

describe('scannerUserAgent (DECISIONS "Scanner identity")', () => {
  it('names the deployment and its /scanner page', () => {
    expect(scannerUserAgent('Rampart', 'https://rampart.example')).toBe('RampartScanner/1.0 (+https://rampart.example/scanner)');
    expect(scannerUserAgent('Rampart', 'https://rampart.example/')).toBe('RampartScanner/1.0 (+https://rampart.example/scanner)');
    expect(scannerPageUrl('http://localhost:3000')).toBe('http://localhost:3000/scanner');
  });

  it('keeps the product token valid: spaces and separators are dropped from the name', () => {
    expect(scannerUserAgent('Bastion Security', 'https://bastion.example')).toBe('BastionSecurityScanner/1.0 (+https://bastion.example/scanner)');
    expect(scannerUserAgent('Shield (AU)', 'https://s.example')).toBe('ShieldAUScanner/1.0 (+https://s.example/scanner)');
  });

  it('is the local deployment’s by default, never a placeholder domain', () => {
    const defaults = configSchema.parse({});
    expect(DEFAULT_USER_AGENT).toBe(scannerUserAgent(defaults.PRODUCT_NAME, defaults.SITE_URL));
    expect(DEFAULT_USER_AGENT).toBe('RampartScanner/1.0 (+http://localhost:3000/scanner)');
  });
});

describe('a scan names itself to the site', () => {
  it('sends ScanSettings.userAgent on every request it makes to the site', async () => {
    // Prepare
    const userAgent = scannerUserAgent('Bastion', 'https://bastion.example');
    const target = parseWebTarget(`http://${HOST}:${port}/`)!;
    seen.length = 0;

    // Act
    const report = await scan(
      target,
      { resolvers: [{ host: zone.host, port: zone.port }], dnsTimeoutMs: 1000, allowPrivateTargets: true, excludePorts: [2024], userAgent },
      { checks: [httpCheck], mode: 'passive', deadlineMs: 15_000 },
    );

    // Assess
    expect(report.checks.map((c) => c.name)).toEqual([httpCheck.name]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.map((s) => s.userAgent)).toEqual(seen.map(() => 'BastionScanner/1.0 (+https://bastion.example/scanner)'));
    expect(seen.map((s) => s.path)).toContain('/');
  });
});

import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzePorts, scanPorts } from '../../../lambdas/scanner/checks/ports.check.js';
import { createTcpClient } from '../../../lambdas/scanner/net/tcp-client.js';
import { selfSignedCertificate } from '../../support/self-signed.js';

const servers: { close(cb?: () => void): unknown }[] = [];
const ports: Record<string, number> = {};

async function listen(name: string, server: Server | ReturnType<typeof createNetServer>) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  ports[name] = (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // The scanner closes as soon as it has a banner, which the server may see as a reset.
  await listen('ssh', createNetServer((socket) => socket.on('error', () => undefined).end('SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8\r\n')));
  await listen('http', createHttpServer((_req, res) => res.writeHead(200, { server: 'Apache/2.4.49 (Unix)' }).end('hi')));
  const { key, cert } = selfSignedCertificate();
  await listen('tls', createTlsServer({ key, cert }, (socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\n\r\n'));
  }));
  // A port that was open and is now closed: the kernel answers with RST.
  const closed = createNetServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  ports.closed = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('port scan against loopback servers', () => {
  it('finds open and closed ports and names each service from what it says', async () => {
    const tcp = createTcpClient({ allowPrivateTargets: true });
    const summary = await scanPorts(tcp, '127.0.0.1', [ports.ssh!, ports.http!, ports.tls!, ports.closed!], 'localhost', new AbortController().signal);

    expect(summary.open.map(({ port, service, product, version, tls }) => ({ port, service, product, version, tls }))).toEqual(
      [
        { port: ports.ssh, service: 'ssh', product: 'OpenSSH', version: '7.2p2', tls: undefined },
        { port: ports.http, service: 'http', product: 'Apache', version: '2.4.49', tls: undefined },
        { port: ports.tls, service: 'https', product: 'nginx', version: '1.22.1', tls: true },
      ].sort((a, b) => a.port! - b.port!),
    );
    expect([summary.closed, summary.filtered]).toEqual([1, 0]);
    expect(analyzePorts(summary).data).toMatchObject({ firewall: 'none', scanned: 4 });
  });

  it('refuses a private address unless private targets are allowed', async () => {
    const tcp = createTcpClient({ allowPrivateTargets: false });
    await expect(tcp.probe('127.0.0.1', ports.ssh!, { timeoutMs: 500 })).rejects.toMatchObject({ code: 'target_not_allowed' });
  });

  it('calls a port that never answers filtered', async () => {
    const tcp = createTcpClient({ allowPrivateTargets: true });
    const controller = new AbortController();
    controller.abort();
    expect(await tcp.probe('127.0.0.1', ports.ssh!, { timeoutMs: 500, signal: controller.signal })).toEqual({ port: ports.ssh, state: 'filtered' });
  });
});

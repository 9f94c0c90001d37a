import dgram from 'node:dgram';
import { promises as dnsPromises } from 'node:dns';
import net from 'node:net';
import { describe, expect, it } from 'vitest';

// The guard is installed for every project by vitest.config.mts (setupFiles); these prove it is on.
describe('test network guard', () => {
  it('refuses a TCP connection off loopback', () => {
    expect(() => net.connect({ host: '10.0.0.1', port: 80 })).toThrowError(/Test network guard: connection to 10.0.0.1:80/);
  });

  it('refuses port 2024 even on loopback', () => {
    expect(() => net.connect(2024, '127.0.0.1')).toThrowError(/Test network guard: connection to port 2024/);
  });

  it('refuses a UDP datagram off loopback', () => {
    const socket = dgram.createSocket('udp4');
    try {
      expect(() => socket.send(Buffer.from('x'), 53, '10.255.255.53')).toThrowError(/Test network guard: UDP datagram to 10.255.255.53/);
    } finally {
      socket.close();
    }
  });

  it('refuses a query through the system resolver', () => {
    const resolver = new dnsPromises.Resolver();
    resolver.setServers(['192.0.2.53']);
    expect(() => resolver.resolve4('example.com')).toThrowError(/Test network guard: DNS query for example.com to 192.0.2.53/);
  });

  it('lets loopback through', async () => {
    const server = net.createServer((s) => s.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const reply = await new Promise<string>((resolve) => net.connect(port, '127.0.0.1').on('data', (d) => resolve(d.toString())));
    server.close();
    expect(reply).toBe('ok');
  });
});

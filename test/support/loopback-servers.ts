import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * Test servers on loopback, never on port 2024 (which the tests must never touch), tracked so that
 * one call closes them and their open connections.
 */
export function loopbackServers() {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  return {
    /** Listens on a free 127.0.0.1 port other than 2024 and returns it. */
    async listen(server: Server): Promise<number> {
      servers.push(server);
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      for (;;) {
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const { port } = server.address() as AddressInfo;
        if (port !== 2024) return port;
        await new Promise((resolve) => server.close(resolve));
      }
    },
    async closeAll(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/**
 * TCP services on chosen loopback addresses and fixed ports: what a port scan will find open. `close`
 * drops the connections a scanner left open (server.close alone would wait for them).
 */
export function portServices() {
  const servers: Server[] = [];
  const closers = new Map<Server, () => void>();
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      closers.get(server)?.();
    });
  return {
    async listen(address: string, port: number): Promise<Server> {
      const sockets = new Set<Socket>();
      const server = net.createServer((socket) => {
        sockets.add(socket.on('error', () => undefined).on('close', () => sockets.delete(socket)));
      });
      closers.set(server, () => sockets.forEach((socket) => socket.destroy()));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, address, () => resolve());
      });
      servers.push(server);
      return server;
    },
    close,
    async closeAll(): Promise<void> {
      await Promise.all(servers.filter((server) => server.listening).map(close));
    },
  };
}

/**
 * One port that speaks HTTPS and plain HTTP, told apart by the first byte (0x16 opens a TLS
 * handshake), like a site on 443 and 80: the Observatory probes both schemes on one explicit port.
 */
export function bothProtocols(tls: { cert: string; key: string }, handler: (secure: boolean) => http.RequestListener): net.Server {
  const plain = http.createServer(handler(false));
  const secure = https.createServer(tls, handler(true));
  return net.createServer((socket) => {
    socket.once('data', (first) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
}

/** An HTTP site on a chosen loopback address and a free port (never 2024); `close` drops the connections left open. */
export async function listenOnAddress(server: http.Server, address: string): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => undefined);
  });
  const listen = () => new Promise<number>((resolve) => server.listen(0, address, () => resolve((server.address() as AddressInfo).port)));
  let port = await listen();
  while (port === 2024) {
    await new Promise((resolve) => server.close(resolve));
    port = await listen();
  }
  return {
    port,
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

import type { AddressInfo, Server, Socket } from 'node:net';

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

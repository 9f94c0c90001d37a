import http from 'node:http';
import net, { type AddressInfo, type Server, type Socket } from 'node:net';
import { portsToScan } from '../../lambdas/scanner/checks/ports.check.js';

/** One TCP connection the target accepted: on which port, and what was sent first on a service port. */
export interface RecordedConnection {
  port: number;
  /** The first line a client sent to a service port (a port scan's HTTP nudge, say); undefined when it sent nothing. */
  firstLine?: string;
}

/** One HTTP request the site answered. */
export interface RecordedRequest {
  port: number;
  method: string;
  path: string;
  host: string;
}

export interface RecordingTarget {
  address: string;
  /** The site's HTTP port: the one its URL names, so a browser's port. */
  sitePort: number;
  /** Ports a port scan finds open (from the scanner's top-100 list), none of them a browser's or a mail server's. */
  servicePorts: number[];
  /** Every TCP connection accepted, on any port, in order. */
  connections: RecordedConnection[];
  /** Every HTTP request line the site got, in order. */
  requests: RecordedRequest[];
  /** The site's URL on `host` (which the test zone points at `address`). */
  siteUrl(host: string): string;
  /** Forgets what was recorded (between scans). */
  reset(): void;
  close(): Promise<void>;
}

/** The site's pages: a redirect to its landing page, which loads a script and a stylesheet. */
export const SITE_PATHS = ['/', '/welcome', '/assets/app.js', '/assets/site.css', '/robots.txt', '/.well-known/security.txt'] as const;

const LANDING = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Recording shop</title>
<link rel="stylesheet" href="/assets/site.css"><script src="/assets/app.js"></script></head>
<body><h1>Recording shop</h1><p>Every connection to this site is written down.</p></body></html>`;

/** Banners for the service ports a scan may find (the port scan identifies what answers). */
const BANNERS: Record<number, string> = {
  21: '220 (vsFTPd 3.0.5)\r\n',
  22: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n',
  23: 'Ubuntu 24.04 LTS\r\nlogin: ',
  3306: '5.7.44-log mysql_native_password\r\n',
  5432: 'postgres ready\r\n',
  8080: 'HTTP/1.0 200 OK\r\nServer: admin-panel\r\n\r\n',
};
/** Never a browser's port (80, 443) nor a mail port (the MX conversation is passive), never 2024. */
const NOT_SERVICES = new Set([80, 443, 25, 465, 587, 2024]);

function listen(server: Server, port: number, address: string): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, address, () => resolve(true));
  });
}

/**
 * A website on one loopback address that writes down every connection it gets: HTTP on a port of
 * its own (the site URL names it), and `serviceCount` other listening ports that nmap's top-100
 * list, and so the scanner's port scan, includes. What a scan did to the site is then read off
 * `connections` and `requests`, not inferred from the report.
 */
export async function startRecordingTarget(address: string, serviceCount = 4): Promise<RecordingTarget> {
  const connections: RecordedConnection[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => undefined);
  };

  const site = http.createServer((req, res) => {
    const port = req.socket.localPort ?? 0;
    const path = req.url ?? '';
    requests.push({ port, method: req.method ?? '', path, host: req.headers.host ?? '' });
    const pathname = new URL(path, 'http://site').pathname;
    if (pathname === '/') return res.writeHead(302, { location: '/welcome' }).end();
    if (pathname === '/welcome') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(LANDING);
    if (pathname === '/assets/app.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end('document.title += "";\n');
    if (pathname === '/assets/site.css') return res.writeHead(200, { 'content-type': 'text/css' }).end('body { margin: 0 }\n');
    if (pathname === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (pathname === '/.well-known/security.txt') {
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('Contact: mailto:security@example.test\nExpires: 2099-01-01T00:00:00.000Z\n');
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><p>Not found</p>');
  });
  site.on('connection', (socket: Socket) => {
    track(socket);
    connections.push({ port: socket.localPort ?? 0 });
  });
  let sitePort = 0;
  for (;;) {
    if (!(await listen(site, 0, address))) throw new Error(`The recording site could not listen on ${address}`);
    sitePort = (site.address() as AddressInfo).port;
    if (sitePort !== 2024) break;
    await new Promise((resolve) => site.close(resolve));
  }
  servers.push(site);

  const servicePorts: number[] = [];
  for (const port of portsToScan(100, [...NOT_SERVICES])) {
    if (servicePorts.length === serviceCount) break;
    if (port === sitePort) continue;
    const service = net.createServer((socket) => {
      track(socket);
      const connection: RecordedConnection = { port };
      connections.push(connection);
      socket.once('data', (chunk: Buffer) => {
        connection.firstLine = chunk.toString('latin1').split('\r\n')[0];
      });
      socket.write(BANNERS[port] ?? '220 recording-target ready\r\n');
    });
    if (await listen(service, port, address)) {
      servers.push(service);
      servicePorts.push(port);
    }
  }
  if (servicePorts.length < serviceCount) throw new Error(`Only ${servicePorts.length} of nmap's top-100 ports were free on ${address}`);

  return {
    address,
    sitePort,
    servicePorts,
    connections,
    requests,
    siteUrl: (host) => `http://${host}:${sitePort}/`,
    reset() {
      connections.length = 0;
      requests.length = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the site answered. */
export interface SiteRequest {
  /** The local port it came in on. */
  port: number;
  method: string;
  path: string;
  /** The Host header: which host (and port) the client asked for. */
  host: string;
}

export interface HttpOnlySite {
  address: string;
  port: number;
  /** Every request answered, in order. */
  requests: SiteRequest[];
  /** The landing page's markup from now on. */
  setLanding(html: string): void;
  /** Stops answering: the listening socket and every open connection close (the port then refuses). */
  stop(): Promise<void>;
  /** Answers again, on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** jQuery 1.8.3's first bytes (its CVEs include one known exploited, CVE-2020-11023). */
export const JQUERY_183 = '/*! jQuery v1.8.3 jquery.com | jquery.org/license */\n(function(e,t){var n,r,i=typeof t';

/** A landing page that loads jQuery 1.8.3 from the site. */
export const LANDING_WITH_OLD_JQUERY =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain shop</title><script src="/js/jquery-1.8.3.min.js"></script></head><body><h1>Plain shop</h1></body></html>';

/** The same page once the owner removed the script. */
export const LANDING_WITHOUT_SCRIPTS = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain shop</title></head><body><h1>Plain shop</h1></body></html>';

/**
 * A website that only speaks plain HTTP, on a loopback address and a port of its own (never 2024; `fixedPort` 80 for a site a bare domain reaches):
 * nothing listens on 443 there, and a TLS client on its own port gets no handshake. It writes down
 * every request, so a test reads which scheme, host and port a scan really asked for.
 */
export async function startHttpOnlySite(address: string, landing = LANDING_WITH_OLD_JQUERY, fixedPort = 0): Promise<HttpOnlySite> {
  let page = landing;
  const requests: SiteRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    requests.push({ port: req.socket.localPort ?? 0, method: req.method ?? '', path, host: req.headers.host ?? '' });
    const pathname = new URL(path, 'http://site').pathname;
    if (pathname === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (pathname === '/js/jquery-1.8.3.min.js') return res.writeHead(200, { 'content-type': 'application/javascript' }).end(JQUERY_183);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><p>Not found</p>');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => undefined);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, address, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  let port = await listen(fixedPort);
  while (port === 2024) {
    await new Promise((resolve) => server.close(resolve));
    port = await listen(0);
  }
  const stop = async () => {
    if (!server.listening) return;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    address,
    port,
    requests,
    setLanding: (html) => {
      page = html;
    },
    stop,
    start: async () => {
      if (!server.listening) await listen(port);
    },
    close: stop,
  };
}

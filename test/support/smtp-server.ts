import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SecureVersion, TLSSocket } from 'node:tls';

/** A self-signed P-256 certificate for `name`, made by the openssl CLI in a temporary folder. */
export function selfSignedCertificate(name: string, days = 30): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-cert-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', String(days), '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SmtpServerOptions {
  /** The greeting, CRLF-separated lines included; default a one-line Postfix-like 220. */
  greeting?: string;
  /** Offer STARTTLS in the EHLO reply (default true). */
  starttls?: boolean;
  /** Answer STARTTLS with this line instead of upgrading. */
  starttlsReply?: string;
  tls?: { key: string; cert: string; minVersion?: SecureVersion; maxVersion?: SecureVersion };
  /** Say nothing at all after accepting the connection. */
  silent?: boolean;
  /** Send each reply a few bytes at a time, to prove the client reassembles lines. */
  dribble?: boolean;
  /** Loopback address to listen on (any of 127.0.0.0/8; default 127.0.0.1). */
  host?: string;
}

export interface TestSmtpServer {
  port: number;
  /** Commands received, in order, with "(tls)" after the upgrade. */
  commands: string[];
  close(): Promise<void>;
}

/** A tiny loopback SMTP server: greeting, EHLO (multi-line), STARTTLS with a real TLS upgrade, QUIT. */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((raw) => {
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => undefined);
    if (options.silent) return;

    const send = (socket: Socket, text: string) => {
      if (!options.dribble) return void socket.write(text);
      for (let i = 0; i < text.length; i += 3) setTimeout(() => socket.writable && socket.write(text.slice(i, i + 3)), i);
    };
    const serve = (socket: Socket, secure: boolean) => {
      let buffer = '';
      const onData = (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        let newline: number;
        while ((newline = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 2);
          commands.push(secure ? `${line} (tls)` : line);
          const verb = line.split(' ')[0]!.toUpperCase();
          if (verb === 'EHLO') {
            const extensions = ['PIPELINING', 'SIZE 10240000', ...(options.starttls !== false && !secure ? ['STARTTLS'] : []), 'ENHANCEDSTATUSCODES', '8BITMIME'];
            send(socket, ['250-mail.example.test', ...extensions.map((e, i) => `250${i === extensions.length - 1 ? ' ' : '-'}${e}`)].join('\r\n') + '\r\n');
          } else if (verb === 'STARTTLS' && !secure) {
            if (options.starttlsReply || !options.tls) return void send(socket, `${options.starttlsReply ?? '454 4.7.0 TLS not available'}\r\n`);
            socket.removeListener('data', onData);
            socket.write('220 2.0.0 Ready to start TLS\r\n');
            const old = options.tls.minVersion === 'TLSv1' || options.tls.minVersion === 'TLSv1.1';
            const tls = new TLSSocket(socket, {
              isServer: true,
              key: options.tls.key,
              cert: options.tls.cert,
              minVersion: options.tls.minVersion,
              maxVersion: options.tls.maxVersion,
              // OpenSSL 3 refuses TLS 1.0/1.1 above security level 0.
              ...(old ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
            });
            tls.on('error', () => socket.destroy());
            tls.on('secure', () => serve(tls, true));
            return;
          } else if (verb === 'QUIT') {
            send(socket, '221 2.0.0 Bye\r\n');
            setTimeout(() => socket.end(), 10);
          } else {
            send(socket, '502 5.5.2 Error: command not recognized\r\n');
          }
        }
      };
      socket.on('data', onData);
    };
    send(raw, options.greeting ?? '220 mail.example.test ESMTP Postfix (Debian/GNU)\r\n');
    serve(raw, false);
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', () => resolve()));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    commands,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpClient } from '../../../lambdas/scanner/net/smtp-client.js';
import type { TlsHandshake } from '../../../lambdas/scanner/net/tls-client.js';
import { selfSignedCertificate, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';

let certificate: { key: string; cert: string };
let server: TestSmtpServer | undefined;
const client = createSmtpClient({ allowPrivateTargets: true });
const conversation = { servername: 'mail.example.test', ehloName: 'scanner.rampart.example', timeoutMs: 2000 };

beforeAll(() => {
  certificate = selfSignedCertificate('mail.example.test');
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('SMTP STARTTLS client', () => {
  it('greets, upgrades to TLS, reads the certificate and quits inside TLS', async () => {
    server = await startSmtpServer({ tls: certificate });
    const result = await client.starttls('127.0.0.1', server.port, conversation);
    expect(result.banner).toBe('mail.example.test ESMTP Postfix (Debian/GNU)');
    expect(result.capabilities).toEqual(['PIPELINING', 'SIZE 10240000', 'STARTTLS', 'ENHANCEDSTATUSCODES', '8BITMIME']);
    expect(result.starttlsOffered).toBe(true);
    const tls = result.tls as TlsHandshake;
    expect(tls.protocol).toBe('TLSv1.3');
    expect(tls.certificates[0]?.subject).toBe('CN=mail.example.test');
    expect([tls.authorized, tls.authorizationError]).toEqual([false, 'DEPTH_ZERO_SELF_SIGNED_CERT']);
    expect(server.commands).toEqual(['EHLO scanner.rampart.example', 'STARTTLS', 'QUIT (tls)']);
  });

  it('reassembles a multi-line greeting that arrives a few bytes at a time', async () => {
    server = await startSmtpServer({ greeting: '220-mail.example.test ESMTP\r\n220-No UCE\r\n220 Ready\r\n', dribble: true, starttls: false });
    const result = await client.starttls('127.0.0.1', server.port, conversation);
    expect(result.banner).toBe('mail.example.test ESMTP\nNo UCE\nReady');
    expect(result.capabilities).toContain('8BITMIME');
  });

  it('reports a server without STARTTLS and sends nothing but EHLO and QUIT', async () => {
    server = await startSmtpServer({ starttls: false });
    const result = await client.starttls('127.0.0.1', server.port, conversation);
    expect([result.starttlsOffered, result.tls]).toEqual([false, undefined]);
    expect(server.commands).toEqual(['EHLO scanner.rampart.example', 'QUIT']);
  });

  it('reports STARTTLS offered but refused', async () => {
    server = await startSmtpServer({ starttlsReply: '454 4.7.0 TLS not available due to local problem' });
    const result = await client.starttls('127.0.0.1', server.port, conversation);
    expect(result.tls).toEqual({ failed: 'STARTTLS answered 454: 4.7.0 TLS not available due to local problem' });
  });

  it('sees the old protocol a server still negotiates', async () => {
    server = await startSmtpServer({ tls: { ...certificate, minVersion: 'TLSv1', maxVersion: 'TLSv1.1' } });
    const result = await client.starttls('127.0.0.1', server.port, conversation);
    expect((result.tls as TlsHandshake).protocol).toBe('TLSv1.1');
  });

  it('gives up on a server that never greets, within its time', async () => {
    server = await startSmtpServer({ silent: true });
    const started = performance.now();
    await expect(client.starttls('127.0.0.1', server.port, { ...conversation, timeoutMs: 300 })).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(performance.now() - started).toBeLessThan(600);
  });

  it('stops when the caller aborts', async () => {
    server = await startSmtpServer({ silent: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(client.starttls('127.0.0.1', server.port, { ...conversation, signal: controller.signal })).rejects.toMatchObject({ code: 'ABORT_ERR' });
  });

  it('treats a refusing greeting as an error, not as "no STARTTLS"', async () => {
    server = await startSmtpServer({ greeting: '554 5.7.1 No SMTP service here\r\n' });
    await expect(client.starttls('127.0.0.1', server.port, conversation)).rejects.toMatchObject({ code: 'SMTP_REJECTED' });
  });

  it('refuses a private address unless private targets are allowed, without connecting', async () => {
    server = await startSmtpServer({ tls: certificate });
    const guarded = createSmtpClient({ allowPrivateTargets: false });
    await expect(guarded.starttls('127.0.0.1', server.port, conversation)).rejects.toMatchObject({ code: 'target_not_allowed' });
    expect(server.commands).toEqual([]);
  });

  it('refuses a closed port quickly', async () => {
    const closed = await startSmtpServer();
    const port = closed.port;
    await closed.close();
    await expect(client.starttls('127.0.0.1', port, conversation)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

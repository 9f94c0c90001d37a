/**
 * The scanner's network, injectable: checks reach the outside only through these clients, so
 * analyses can be tested on fixtures and probes on loopback servers. Each client enforces the
 * target guard for what it connects to (HTTP redirects included) and honours an AbortSignal.
 */
import type { DnsClient } from './dns-client.js';
import type { HttpClient } from './http-client.js';
import type { SmtpClient } from './smtp-client.js';
import type { TcpClient } from './tcp-client.js';
import type { TlsClient } from './tls-client.js';

export interface ScanNet {
  dns: DnsClient;
  tcp: TcpClient;
  tls: TlsClient;
  http: HttpClient;
  smtp: SmtpClient;
}

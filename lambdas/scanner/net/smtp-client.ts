import type { TlsHandshake } from './tls-client.js';

export interface SmtpStarttlsResult {
  /** The 220 greeting line(s). */
  banner: string;
  /** EHLO capability lines (without the 250- prefix). */
  capabilities: string[];
  starttlsOffered: boolean;
  /** The TLS session after STARTTLS, when offered and it succeeded; `failed` says why not. */
  tls?: TlsHandshake | { failed: string };
}

/**
 * One polite SMTP conversation with a mail server: read the greeting, EHLO, STARTTLS when offered,
 * handshake, QUIT. No MAIL FROM, no RCPT, no AUTH: nothing is sent and nothing is guessed.
 * Connects only to addresses that pass the target guard.
 */
export interface SmtpClient {
  starttls(address: string, port: number, options: { servername?: string; ehloName: string; timeoutMs: number; signal?: AbortSignal }): Promise<SmtpStarttlsResult>;
}

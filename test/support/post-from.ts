import { request } from 'node:http';

export interface JsonReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/**
 * POSTs JSON from a chosen loopback source address (127.0.0.0/8 is all loopback on Linux), so a test
 * can be "another visitor" for per-IP limits without leaving the machine.
 */
export function postJsonFrom(sourceIp: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonReply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: sourceIp,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The emails the local SES has accepted (aws-ses-v2-local's store). */
export interface StoredEmail {
  messageId: string;
  subject: string;
  destination: { to: string[] };
  body: { text?: string; html?: string };
}

export async function mailbox(mailboxUrl: string, to?: string): Promise<StoredEmail[]> {
  const store = (await fetch(`${mailboxUrl}/store`).then((r) => r.json())) as { emails: StoredEmail[] };
  return to ? store.emails.filter((e) => e.destination.to.includes(to)) : store.emails;
}

/** The SMS the local stack has sent (its outbox). */
export async function smsOutbox(baseUrl: string): Promise<{ to: string; body: string }[]> {
  return ((await fetch(`${baseUrl}/_local/outbox.json`).then((r) => r.json())) as { messages: { to: string; body: string }[] }).messages;
}

/**
 * Messages sent after something finished (the worker alerts right after it marks a rescan completed):
 * reads until `count` of them have arrived, or 10 s have passed.
 */
export async function arrived<T>(read: () => Promise<T[]>, count: number): Promise<T[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const messages = await read();
    if (messages.length >= count || Date.now() > deadline) return messages;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

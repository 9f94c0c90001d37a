import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

export interface TestDnsServer {
  port: number;
  close(): Promise<void>;
}

/** The records a question gets, and whether its name exists (NXDOMAIN when not). */
export type DnsAnswerer = (question: dnsPacket.Question) => { answers: dnsPacket.Answer[]; found: boolean };

/**
 * An authoritative DNS server on 127.0.0.1 for tests, so no query ever reaches the system
 * resolver: each query's first question gets the answer `answer` gives it. Nothing is forwarded.
 */
export async function serveDns(answer: DnsAnswerer): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const { answers, found } = answer(question);
    const response = dnsPacket.encode({
      id: query.id,
      type: 'response',
      // QR is set by type; AA (0x400) and RD copied; rcode 3 = NXDOMAIN
      flags: dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | (found ? 0 : 3),
      questions: [question],
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  return {
    port: socket.address().port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A zone of A records: the given names get the given IPv4 addresses, everything else NXDOMAIN. */
export async function startDnsServer(records: Record<string, string[]>): Promise<TestDnsServer> {
  const zone = new Map(Object.entries(records).map(([name, ips]) => [name.toLowerCase().replace(/\.$/, ''), ips]));
  return serveDns((question) => {
    const ips = zone.get(question.name.toLowerCase().replace(/\.$/, ''));
    const answers: dnsPacket.Answer[] =
      ips && question.type === 'A' ? ips.map((ip) => ({ name: question.name, type: 'A', class: 'IN', ttl: 60, data: ip })) : [];
    return { answers, found: ips !== undefined };
  });
}

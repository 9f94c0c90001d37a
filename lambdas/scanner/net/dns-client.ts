import type dnsPacket from 'dns-packet';

export interface DnsServer {
  host: string;
  port: number;
}

export interface DnsAnswer {
  /** NOERROR, NXDOMAIN, SERVFAIL, REFUSED … */
  rcode: string;
  answers: dnsPacket.Answer[];
  authorities: dnsPacket.Answer[];
  /** Authenticated data: the resolver validated DNSSEC. */
  ad: boolean;
  truncated: boolean;
}

/** Raw DNS over UDP (TCP on truncation) with dns-packet, to the scanner's configured resolvers. */
export interface DnsClient {
  query(name: string, type: dnsPacket.RecordType, options?: { dnssec?: boolean; server?: DnsServer; signal?: AbortSignal }): Promise<DnsAnswer>;
  /** A zone transfer attempt over TCP against one name server; the records it gave, if any. */
  axfr(zone: string, server: DnsServer, options?: { signal?: AbortSignal }): Promise<{ allowed: boolean; records: dnsPacket.Answer[]; error?: string }>;
}

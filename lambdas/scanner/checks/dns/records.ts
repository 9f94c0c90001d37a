/**
 * Records as the report shows them: dns-packet's decoded answers (Buffers, nested objects) turned
 * into the presentation strings of zone files (`10 mail.example.com`, `0 issue "letsencrypt.org"`),
 * so check data is plain JSON and reads like `dig` output.
 */
import type dnsPacket from 'dns-packet';

/** A name as compared everywhere: lower case, no final dot. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** True when `name` is `domain` or a name below it. */
export function isAtOrBelow(name: string, domain: string): boolean {
  const n = normalizeName(name);
  const d = normalizeName(domain);
  return n === d || n.endsWith(`.${d}`);
}

/** dns-packet's answer type for one record type (A, NS, CNAME … share the string-data shape). */
export type AnswerOf<T extends dnsPacket.Answer['type']> = T extends dnsPacket.StringRecordType
  ? dnsPacket.StringAnswer
  : T extends dnsPacket.OtherRecordType
    ? dnsPacket.BufferAnswer
    : Extract<dnsPacket.Answer, { type: T }>;

/** The answers of one type (answers may also hold CNAMEs and RRSIGs). */
export function ofType<T extends dnsPacket.Answer['type']>(answers: readonly dnsPacket.Answer[], type: T): AnswerOf<T>[] {
  return answers.filter((a) => a.type === type) as AnswerOf<T>[];
}

/** A TXT record's character-strings joined without separators, as SPF and DMARC read them (RFC 7208 §3.3). */
export function txtValue(data: dnsPacket.TxtData): string {
  const parts = Array.isArray(data) ? data : [data];
  return parts.map((p) => (typeof p === 'string' ? p : p.toString('utf8'))).join('');
}

/** Every TXT record of an answer, each as one string. */
export function txtValues(answers: readonly dnsPacket.Answer[]): string[] {
  return ofType(answers, 'TXT').map((a) => txtValue(a.data));
}

/** One record in zone-file presentation form (the part after the type). */
export function presentRecord(answer: dnsPacket.Answer): string {
  switch (answer.type) {
    case 'A':
    case 'AAAA':
    case 'CNAME':
    case 'DNAME':
    case 'NS':
    case 'PTR':
      return normalizeName(answer.data);
    case 'MX':
      return `${answer.data.preference ?? 0} ${normalizeName(answer.data.exchange)}`;
    case 'TXT':
      return txtValue(answer.data);
    case 'CAA':
      return `${answer.data.flags ?? (answer.data.issuerCritical ? 128 : 0)} ${answer.data.tag} "${answer.data.value}"`;
    case 'SOA': {
      const d = answer.data;
      return [normalizeName(d.mname), normalizeName(d.rname), d.serial, d.refresh, d.retry, d.expire, d.minimum].join(' ');
    }
    case 'DNSKEY':
      return `${answer.data.flags} 3 ${answer.data.algorithm} ${answer.data.key.toString('base64').slice(0, 24)}…`;
    case 'DS':
      return `${answer.data.keyTag} ${answer.data.algorithm} ${answer.data.digestType} ${answer.data.digest.toString('hex')}`;
    case 'RRSIG':
      return `${answer.data.typeCovered} ${answer.data.algorithm} ${answer.data.labels} ${answer.data.keyTag} ${normalizeName(answer.data.signersName)}`;
    case 'SRV':
      return `${answer.data.priority ?? 0} ${answer.data.weight ?? 0} ${answer.data.port} ${normalizeName(answer.data.target)}`;
    case 'OPT':
      return '';
    default:
      return 'data' in answer && Buffer.isBuffer(answer.data) ? answer.data.toString('hex') : JSON.stringify('data' in answer ? answer.data : null);
  }
}

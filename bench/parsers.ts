/**
 * What each tool of the bench found, read from its machine output into one shape (pure
 * functions, no I/O): open ports with product/version, TLS protocols offered, certificate faults,
 * identified software. Each parser says which facts its tool reports at all, so the recall table
 * can tell "not found" from "not looked for".
 */

export type CertFault = 'expired' | 'self-signed' | 'name-mismatch' | 'sha1-signature' | 'weak-key';
export const CERT_FAULTS: readonly CertFault[] = ['expired', 'self-signed', 'name-mismatch', 'sha1-signature', 'weak-key'];

export interface PortFact {
  port: number;
  service?: string;
  product?: string;
  version?: string;
}

export interface TlsFact {
  /** address:port */
  endpoint: string;
  protocols: string[];
  certFaults: CertFault[];
  /** The faults this tool judges at all (sslscan does not check names, for one). */
  faultsReported: CertFault[];
  /** Milliseconds the tool itself says it spent on this endpoint, when it says. */
  ms?: number;
}

const TLS_NAMES: Record<string, string> = {
  SSLv2: 'SSLv2', SSLv3: 'SSLv3', TLS1: 'TLSv1', TLS1_1: 'TLSv1.1', TLS1_2: 'TLSv1.2', TLS1_3: 'TLSv1.3',
  'ssl 2': 'SSLv2', 'ssl 3': 'SSLv3', 'tls 1.0': 'TLSv1', 'tls 1.1': 'TLSv1.1', 'tls 1.2': 'TLSv1.2', 'tls 1.3': 'TLSv1.3',
};
const PROTOCOL_ORDER = ['SSLv2', 'SSLv3', 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
export const sortProtocols = (list: Iterable<string>) => [...new Set(list)].sort((a, b) => PROTOCOL_ORDER.indexOf(a) - PROTOCOL_ORDER.indexOf(b));

function xmlAttributes(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)="([^"]*)"/g)) attributes[match[1]!] = decodeXml(match[2]!);
  return attributes;
}

function decodeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');
}

/** nmap -oX: open TCP ports per host address, with nmap's service, product and version. */
export function parseNmapXml(xml: string): Map<string, PortFact[]> {
  const hosts = new Map<string, PortFact[]>();
  for (const host of xml.matchAll(/<host[\s>][\s\S]*?<\/host>/g)) {
    const address = /<address addr="([^"]+)" addrtype="ipv[46]"/.exec(host[0])?.[1];
    if (!address) continue;
    const ports: PortFact[] = [];
    for (const port of host[0].matchAll(/<port protocol="tcp" portid="(\d+)">([\s\S]*?)<\/port>/g)) {
      if (!/<state state="open"/.test(port[2]!)) continue;
      const service = /<service [^>]*>|<service [^>]*\/>/.exec(port[2]!)?.[0];
      const attributes = service ? xmlAttributes(service) : {};
      const name = attributes.tunnel === 'ssl' && attributes.name ? `ssl/${attributes.name}` : attributes.name;
      ports.push({ port: Number(port[1]), service: name, product: attributes.product, version: attributes.version });
    }
    hosts.set(address, ports);
  }
  return hosts;
}

interface TestsslEntry {
  id: string;
  ip?: string;
  port?: string;
  severity: string;
  finding: string;
}

/** testssl --jsonfile (flat): protocols offered and certificate faults of one endpoint. */
export function parseTestsslJson(text: string, endpoint: string): TlsFact & { problems: string[] } {
  const entries = JSON.parse(text) as TestsslEntry[];
  const find = (id: string) => entries.filter((e) => e.id === id || e.id.startsWith(`${id} `));
  const protocols = entries.filter((e) => e.id in TLS_NAMES && /^offered/i.test(e.finding)).map((e) => TLS_NAMES[e.id]!);
  const faults = new Set<CertFault>();
  if (find('cert_expirationStatus').some((e) => /expired/i.test(e.finding))) faults.add('expired');
  if (find('cert_chain_of_trust').some((e) => /self[ -]signed/i.test(e.finding))) faults.add('self-signed');
  if (find('cert_trust').some((e) => /does not match/i.test(e.finding))) faults.add('name-mismatch');
  if (find('cert_signatureAlgorithm').some((e) => /SHA1|MD5/i.test(e.finding))) faults.add('sha1-signature');
  for (const e of find('cert_keySize')) {
    const bits = Number(/(\d+) bits/.exec(e.finding)?.[1]);
    if (/RSA|DSA|DH/i.test(e.finding) && bits > 0 && bits < 2048) faults.add('weak-key');
  }
  const problems = entries.filter((e) => e.id === 'scanProblem' || e.severity === 'FATAL').map((e) => e.finding);
  return { endpoint, protocols: sortProtocols(protocols), certFaults: CERT_FAULTS.filter((f) => faults.has(f)), faultsReported: [...CERT_FAULTS], problems };
}

/** sslscan --xml: protocols enabled and the certificate's faults (sslscan judges no host names). */
export function parseSslscanXml(xml: string, endpoint: string): TlsFact {
  const protocols = [...xml.matchAll(/<protocol [^>]*\/>/g)]
    .map((m) => xmlAttributes(m[0]))
    .filter((a) => a.enabled === '1')
    .map((a) => TLS_NAMES[`${a.type} ${a.version}`])
    .filter((p): p is string => Boolean(p));
  const text = (tag: string) => new RegExp(`<${tag}>(?:<!\\[CDATA\\[)?([\\s\\S]*?)(?:\\]\\]>)?</${tag}>`).exec(xml)?.[1]?.trim();
  const pk = /<pk [^>]*\/>/.exec(xml)?.[0];
  const key = pk ? xmlAttributes(pk) : {};
  const faults = new Set<CertFault>();
  if (text('expired') === 'true') faults.add('expired');
  if (text('self-signed') === 'true') faults.add('self-signed');
  if (/sha1|md5/i.test(text('signature-algorithm') ?? '')) faults.add('sha1-signature');
  if (/RSA|DSA/i.test(key.type ?? '') && Number(key.bits) > 0 && Number(key.bits) < 2048) faults.add('weak-key');
  return {
    endpoint,
    protocols: sortProtocols(protocols),
    certFaults: CERT_FAULTS.filter((f) => faults.has(f)),
    faultsReported: CERT_FAULTS.filter((f) => f !== 'name-mismatch'),
  };
}

/** whatweb --log-json: plugin → version (or string) for each target. */
export function parseWhatwebJson(text: string): Record<string, string> {
  const entries = JSON.parse(text.trim() || '[]') as { plugins?: Record<string, { version?: string[]; string?: string[] }> }[];
  const found: Record<string, string> = {};
  const ignore = new Set(['Country', 'IP', 'Title', 'HTML5', 'Script', 'UncommonHeaders', 'RedirectLocation']);
  for (const entry of entries) {
    for (const [plugin, value] of Object.entries(entry.plugins ?? {})) {
      if (ignore.has(plugin)) continue;
      found[plugin] = value.version?.[0] ?? value.string?.[0] ?? '';
    }
  }
  return found;
}

/** The parts of Rampart's `npm run scan -- --json` report the bench compares. */
export interface RampartJson {
  addresses?: string[];
  durationMs?: number;
  ports?: { address?: string; open?: { port: number; service?: string; product?: string; version?: string; tls?: boolean }[] };
  tls?: {
    address?: string;
    ports?: {
      port: number;
      offered?: string[];
      durationMs?: number;
      certificate?: { expired?: boolean; selfSigned?: boolean; hostnameMatch?: boolean; keyType?: string; keySize?: number; weakSignature?: string | null; signatureAlgorithm?: string };
    }[];
  };
  email?: {
    mx?: {
      address?: string;
      starttls?: boolean;
      tlsVersion?: string;
      tlsVersionsOffered?: string[];
      certificate?: { expired?: boolean; selfSigned?: boolean; nameMatches?: boolean; keyType?: string; keyBits?: number; signatureAlgorithm?: string };
    }[];
  };
  findings?: { id: string; evidence?: string }[];
  checks?: { name: string; status: string; durationMs?: number; reason?: string }[];
}

export interface RampartFacts {
  ports: Map<string, PortFact[]>;
  tls: TlsFact[];
  /** Software Rampart named (product → version), from banners and disclosure findings. */
  software: Record<string, string>;
  checks: { name: string; status: string; durationMs?: number; reason?: string }[];
}

/** Reads ports, TLS endpoints (implicit TLS and the MX's STARTTLS) and software from Rampart's JSON. */
export function parseRampartJson(text: string): RampartFacts {
  const report = JSON.parse(text) as RampartJson;
  const ports = new Map<string, PortFact[]>();
  const address = report.ports?.address ?? report.addresses?.[0];
  if (address && report.ports?.open) {
    ports.set(
      address,
      report.ports.open.map((p) => ({ port: p.port, service: p.service, product: p.product, version: p.version })),
    );
  }
  const tls: TlsFact[] = [];
  for (const port of report.tls?.ports ?? []) {
    const c = port.certificate ?? {};
    const faults = new Set<CertFault>();
    if (c.expired) faults.add('expired');
    if (c.selfSigned) faults.add('self-signed');
    if (c.hostnameMatch === false) faults.add('name-mismatch');
    if (c.weakSignature || /sha1|md5/i.test(c.signatureAlgorithm ?? '')) faults.add('sha1-signature');
    if (c.keyType === 'rsa' && (c.keySize ?? 4096) < 2048) faults.add('weak-key');
    tls.push({
      endpoint: `${report.tls?.address ?? address}:${port.port}`,
      protocols: sortProtocols(port.offered ?? []),
      certFaults: CERT_FAULTS.filter((f) => faults.has(f)),
      faultsReported: [...CERT_FAULTS],
      ms: port.durationMs,
    });
  }
  for (const mx of report.email?.mx ?? []) {
    if (!mx.address || !mx.starttls) continue;
    const c = mx.certificate ?? {};
    const faults = new Set<CertFault>();
    if (c.expired) faults.add('expired');
    if (c.selfSigned) faults.add('self-signed');
    if (c.nameMatches === false) faults.add('name-mismatch');
    if (/sha1|md5/i.test(c.signatureAlgorithm ?? '')) faults.add('sha1-signature');
    if (c.keyType === 'rsa' && (c.keyBits ?? 4096) < 2048) faults.add('weak-key');
    tls.push({
      endpoint: `${mx.address}:25`,
      protocols: mx.tlsVersionsOffered ?? (mx.tlsVersion ? [mx.tlsVersion] : []),
      certFaults: CERT_FAULTS.filter((f) => faults.has(f)),
      faultsReported: [...CERT_FAULTS],
      ms: report.checks?.find((ch) => ch.name === 'email')?.durationMs,
    });
  }
  const software: Record<string, string> = {};
  for (const p of report.ports?.open ?? []) if (p.product) software[p.product] = p.version ?? '';
  for (const f of report.findings ?? []) {
    if (!f.id.startsWith('http.disclosure') && !f.id.includes('wordpress') && !f.id.includes('generator')) continue;
    for (const m of (f.evidence ?? '').matchAll(/([A-Za-z][\w-]*)\/(\d[\w.~+-]*)/g)) software[m[1]!] ??= m[2]!;
    for (const m of (f.evidence ?? '').matchAll(/WordPress (\d[\d.]*)/g)) software.WordPress ??= m[1]!;
  }
  return { ports, tls, software, checks: report.checks ?? [] };
}

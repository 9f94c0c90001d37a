/**
 * One TLS port, analysed (pure): from the handshakes the probe made to the protocols offered,
 * the suites negotiated, the certificate, the SSL Labs-style grade and the issues.
 */
import { isTlsFailure, TLS_VERSIONS, type TlsFailure, type TlsHandshake, type TlsVersion } from '../../net/tls-client.js';
import { analyzeCertificate, type CertificateSummary } from './certificate.js';
import { describeCipher, type CipherInfo } from './cipher-suite.js';
import { gradePort, type PortGrade } from './grade.js';
import type { HstsPolicy } from './hsts.js';
import type { TlsIssue } from './issues.js';

/**
 * Follow-up handshakes (TLS 1.0–1.2) with one kind of suite only, because one handshake per
 * version shows only the suite the server prefers: does it support forward secrecy or AEAD at
 * all, does it still accept CBC, and what DH group does it use when DHE is chosen (a server that
 * prefers ECDHE can still hand a 1024-bit group to clients that ask for DHE: Logjam).
 */
export const restrictedProbes = {
  forwardSecrecy: 'kECDHE:kDHE:!aNULL:@SECLEVEL=0',
  aead: 'AESGCM:CHACHA20:AESCCM:ARIAGCM:@SECLEVEL=0',
  dhe: 'kDHE:!aNULL:@SECLEVEL=0',
  cbc: 'ALL:!AESGCM:!CHACHA20:!AESCCM:!ARIAGCM:!RC4:!eNULL:@SECLEVEL=0',
} as const;
export type RestrictedProbe = keyof typeof restrictedProbes;

export type HandshakeResult = TlsHandshake | TlsFailure;

export interface PortProbe {
  port: number;
  /** One handshake per version, min = max = version. */
  versions: Partial<Record<TlsVersion, HandshakeResult>>;
  /** The restricted follow-ups that were needed (see restrictedProbes). */
  restricted: Partial<Record<RestrictedProbe, HandshakeResult>>;
  durationMs?: number;
}

export interface ProtocolReport {
  version: TlsVersion;
  offered: boolean;
  cipher: string | null;
  /** Why the handshake failed, when it did. */
  error: string | null;
}

export interface PortReport {
  port: number;
  /** Some TLS handshake succeeded on the port. */
  tls: boolean;
  protocols: ProtocolReport[];
  offered: TlsVersion[];
  /** Every distinct suite negotiated, by version probes and restricted probes alike. */
  ciphers: CipherInfo[];
  forwardSecrecy: boolean;
  aead: boolean;
  /** Whether CBC suites are still accepted (null: not tested). */
  cbcOffered: boolean | null;
  cbcOnly: boolean;
  /** The smallest DH group seen, in bits (null: no DHE negotiated). */
  dhBits: number | null;
  certificate: CertificateSummary | null;
  grade: PortGrade | null;
  /** False when the check's time ran out before every handshake was made: no grade, no issues. */
  complete: boolean;
  /** Why no handshake worked (or why the port was not fully tested). */
  error: string | null;
  durationMs: number | null;
}

export interface PortContext {
  /** The name visitors use (host name or IP literal), checked against the certificate. */
  name: string;
  now: Date;
  hsts: HstsPolicy | null;
}

const label: Record<TlsVersion, string> = { TLSv1: 'TLS 1.0', 'TLSv1.1': 'TLS 1.1', 'TLSv1.2': 'TLS 1.2', 'TLSv1.3': 'TLS 1.3' };

const succeeded = (result: HandshakeResult | undefined): result is TlsHandshake => result !== undefined && !isTlsFailure(result);

/** The restricted probes still worth making, given what the version handshakes already showed (none without TLS ≤ 1.2). */
export function needsRestrictedProbes(versions: PortProbe['versions']): RestrictedProbe[] {
  const legacy = (['TLSv1', 'TLSv1.1', 'TLSv1.2'] as const).map((v) => versions[v]).filter(succeeded);
  if (legacy.length === 0) return [];
  const seen = legacy.map((h) => describeCipher(h)).filter((c): c is CipherInfo => c !== null);
  const needed: RestrictedProbe[] = [];
  if (!seen.some((c) => c.forwardSecrecy)) needed.push('forwardSecrecy');
  if (!seen.some((c) => c.aead)) needed.push('aead');
  if (!seen.some((c) => c.keyExchange === 'DHE')) needed.push('dhe');
  if (!seen.some((c) => c.cbc)) needed.push('cbc');
  return needed;
}

/** Analyses what the probe of one port retrieved. */
export function analyzePort(probe: PortProbe, context: PortContext): { report: PortReport; issues: TlsIssue[] } {
  const protocols: ProtocolReport[] = TLS_VERSIONS.map((version) => {
    const result = probe.versions[version];
    if (succeeded(result)) return { version, offered: true, cipher: result.cipher?.name ?? null, error: null };
    return { version, offered: false, cipher: null, error: result?.failed ?? 'not tried' };
  });
  const offered = protocols.filter((p) => p.offered).map((p) => p.version);
  const handshakes = [...TLS_VERSIONS.map((v) => probe.versions[v]), ...Object.values(probe.restricted)].filter(succeeded);
  const ciphers = distinct(handshakes.map((h) => describeCipher(h)).filter((c): c is CipherInfo => c !== null));

  // The certificate a modern client gets: from the highest version that answered.
  const best = [...TLS_VERSIONS].reverse().map((v) => probe.versions[v]).find(succeeded) ?? handshakes[0];
  const analysed = best
    ? analyzeCertificate({ certificates: best.certificates, authorized: best.authorized, authorizationError: best.authorizationError, name: context.name, now: context.now })
    : null;

  const forwardSecrecy = ciphers.some((c) => c.forwardSecrecy);
  const aead = ciphers.some((c) => c.aead);
  const cbcProbe = probe.restricted.cbc;
  const cbcOffered = ciphers.some((c) => c.cbc) ? true : cbcProbe && isTlsFailure(cbcProbe) && cbcProbe.connected ? false : null;
  const dh = ciphers.filter((c) => c.ephemeralKey?.type === 'DH' && c.ephemeralKey.size).map((c) => c.ephemeralKey!.size!);
  const dhBits = dh.length > 0 ? Math.min(...dh) : null;
  const tls = handshakes.length > 0;
  // A handshake cut short by the check's deadline says nothing about the server: judging the port
  // on the rest would report versions or suites as missing that were simply never tried.
  const complete = ![...TLS_VERSIONS.map((v) => probe.versions[v]), ...Object.values(probe.restricted)].some(
    (r) => r !== undefined && isTlsFailure(r) && r.code === 'ABORT_ERR',
  );
  const grade = complete ? gradePort({ offered, ciphers, certificate: analysed?.summary ?? null, hsts: context.hsts }) : null;

  const report: PortReport = {
    port: probe.port,
    tls,
    protocols,
    offered,
    ciphers,
    forwardSecrecy,
    aead,
    cbcOffered,
    cbcOnly: !aead && ciphers.some((c) => c.cbc),
    dhBits,
    certificate: analysed?.summary ?? null,
    grade,
    complete,
    error: !complete ? 'The check ran out of time before every handshake was made' : tls ? null : firstFailure(probe),
    durationMs: probe.durationMs ?? null,
  };
  if (!tls || !complete) return { report, issues: [] };

  const issues: TlsIssue[] = [];
  const cipherOf = (v: TlsVersion) => protocols.find((p) => p.version === v)?.cipher ?? 'unknown suite';
  if (offered.includes('TLSv1')) {
    const cbc = ciphers.find((c) => c.protocol === 'TLSv1' && c.cbc);
    issues.push({ id: 'tls.protocol.tls10', severity: 'medium', evidence: `TLS 1.0 accepted (${cipherOf('TLSv1')})`, ...(cbc ? { cves: ['CVE-2011-3389'] } : {}) });
  }
  if (offered.includes('TLSv1.1')) issues.push({ id: 'tls.protocol.tls11', severity: 'low', evidence: `TLS 1.1 accepted (${cipherOf('TLSv1.1')})` });
  const highest = offered.at(-1)!;
  const noTls12 = !offered.includes('TLSv1.2') && !offered.includes('TLSv1.3');
  // Without TLS 1.2 there can be neither TLS 1.3 nor AEAD suites: one finding for the cause.
  if (noTls12) issues.push({ id: 'tls.protocol.no-tls12', severity: 'high', evidence: `highest version offered is ${label[highest]}` });
  else if (!offered.includes('TLSv1.3')) issues.push({ id: 'tls.protocol.no-tls13', severity: 'info', evidence: `highest version offered is ${label[highest]}` });
  const anonymous = ciphers.filter((c) => c.keyExchange === 'anon');
  if (anonymous.length > 0) {
    issues.push({ id: 'tls.cipher.anonymous', severity: 'high', evidence: `unauthenticated suites accepted: ${suiteList(anonymous)}` });
  } else if (!forwardSecrecy) {
    issues.push({ id: 'tls.cipher.no-forward-secrecy', severity: 'medium', evidence: `no ECDHE or DHE suite accepted; negotiated ${suiteList(ciphers)}` });
  }
  if (!aead && !noTls12) issues.push({ id: 'tls.cipher.no-aead', severity: 'low', evidence: `no GCM, ChaCha20 or CCM suite accepted; negotiated ${suiteList(ciphers)}` });
  const weak = ciphers.filter((c) => c.export || (c.bits !== null && c.bits < 112));
  if (weak.length > 0) issues.push({ id: 'tls.cipher.weak', severity: 'high', evidence: `suites under 112 bits accepted: ${suiteList(weak)}` });
  if (dhBits !== null && dhBits < 2048) {
    const suite = ciphers.find((c) => c.ephemeralKey?.type === 'DH' && c.ephemeralKey.size === dhBits)!;
    issues.push({
      id: 'tls.cipher.weak-dh',
      severity: dhBits < 1024 ? 'high' : 'medium',
      evidence: `DHE uses a ${dhBits}-bit group (${suite.name}); 2048 bits is the minimum`,
      cves: ['CVE-2015-4000'],
    });
  }
  issues.push(...(analysed?.issues ?? []));
  return { report, issues: issues.map((issue) => ({ ...issue, port: probe.port })) };
}

/** "AES128-SHA (TLS 1.0, 1.1, 1.2), ECDHE-RSA-AES256-GCM-SHA384 (TLS 1.2)". */
function suiteList(ciphers: readonly CipherInfo[]): string {
  const versions = new Map<string, string[]>();
  for (const c of ciphers) versions.set(c.name, [...(versions.get(c.name) ?? []), (label[c.protocol as TlsVersion] ?? c.protocol).replace(/^TLS /, '')]);
  return [...versions].map(([name, list]) => `${name} (TLS ${[...new Set(list)].join(', ')})`).join(', ');
}

function distinct(ciphers: CipherInfo[]): CipherInfo[] {
  const seen = new Map<string, CipherInfo>();
  for (const cipher of ciphers) {
    const key = `${cipher.protocol} ${cipher.name} ${cipher.ephemeralKey?.name ?? ''} ${cipher.ephemeralKey?.size ?? ''}`;
    if (!seen.has(key)) seen.set(key, cipher);
  }
  return [...seen.values()];
}

/** The most telling failure: a TLS-level one (the port answered) over a network one. */
function firstFailure(probe: PortProbe): string {
  const failures = TLS_VERSIONS.map((v) => probe.versions[v]).filter((r): r is TlsFailure => r !== undefined && isTlsFailure(r));
  return (failures.find((f) => f.connected) ?? failures[0])?.failed ?? 'not tried';
}

/** True when the port refused or ignored every connection (as opposed to answering without TLS). */
export function unreachable(probe: PortProbe): boolean {
  const results = TLS_VERSIONS.map((v) => probe.versions[v]).filter((r): r is HandshakeResult => r !== undefined);
  return results.length > 0 && results.every((r) => isTlsFailure(r) && !r.connected);
}

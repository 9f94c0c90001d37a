import type { CheckDefinition, CheckOutput } from '../check.js';
import { analyzeBimi, evaluateBimi } from './email/bimi.js';
import { analyzeDane, daneUsed, verifyDane } from './email/dane.js';
import { analyzeDkim } from './email/dkim.js';
import { analyzeDmarc, dmarcEnforced } from './email/dmarc.js';
import { type EmailSnapshot, probeEmail } from './email/email.probe.js';
import { analyzeMtaSts, mtaStsEnforced, parseMtaStsPolicy } from './email/mta-sts.js';
import { analyzeMx, tlsEstablished } from './email/mx.js';
import { analyzeSpf } from './email/spf.js';
import { analyzeTlsRpt, evaluateTlsRpt } from './email/tls-rpt.js';
import { parseTrustAnchor, ROOT_TRUST_ANCHORS } from './dns/trust-anchors.js';

/** The name the scanner gives in EHLO: honest, and under a domain Rampart controls. */
export const EHLO_NAME = 'scanner.rampart.example';
/** One SMTP conversation may take this long: greeting delays of several seconds are common (postscreen). */
const SMTP_TIMEOUT_MS = 8_000;

/**
 * True when the domain says it sends no mail (null MX, or `v=spf1 -all` with DMARC reject):
 * internet.nl then skips DKIM, and so do we.
 */
export function sendsNoMail(snapshot: EmailSnapshot): boolean {
  if (snapshot.mx.nullMx) return true;
  return /^v=spf1\s+-all\s*$/i.test(snapshot.spf.record ?? '') && snapshot.dmarc.effectivePolicy === 'reject';
}

/** Analyze: SPF, DMARC, DKIM, MX, MTA-STS, TLS-RPT, DANE and BIMI findings, and the data the report shows. */
export function analyzeEmail(snapshot: EmailSnapshot): CheckOutput {
  const { spf, dmarc, dkim, mx, mtaSts, tlsRpt, bimi } = snapshot;
  const hasMx = !mx.nullMx && mx.mx.length > 0;
  const daneMx = mx.mx
    .filter((m) => m.tlsa)
    .map((m) => ({
      host: m.host,
      tlsa: m.tlsa!,
      ...(m.tlsaSigned !== undefined ? { signed: m.tlsaSigned } : {}),
      ...(m.tlsaDnssec !== undefined ? { dnssec: m.tlsaDnssec } : {}),
      ...(m.tlsaDnssecReason !== undefined ? { dnssecReason: m.tlsaDnssecReason } : {}),
      ...(m.chain ? { chain: m.chain } : {}),
      ...(tlsEstablished(m.tls) && m.tls.certificate ? { nameMatches: m.tls.certificate.nameMatches } : {}),
    }));
  const findings = [
    ...analyzeSpf(spf, { dmarcEnforced: dmarcEnforced(dmarc) }),
    ...analyzeDmarc(dmarc),
    ...analyzeDkim(dkim, { sendsNoMail: sendsNoMail(snapshot) }),
    // Certificate faults weigh more only where senders really check: MTA-STS enforce, or DANE that DNSSEC proves.
    ...analyzeMx(mx, { enforced: mtaStsEnforced(mtaSts) || daneMx.some(daneUsed) }),
    ...analyzeMtaSts(mtaSts, { hasMx }),
    ...analyzeTlsRpt(tlsRpt, { hasMx, transportPolicy: mx.mtaSts || daneMx.length > 0 }),
    ...analyzeDane(daneMx),
    ...analyzeBimi(bimi, { dmarcEnforced: dmarcEnforced(dmarc) }),
  ];
  const policy = mtaSts.fetch?.body !== undefined ? parseMtaStsPolicy(mtaSts.fetch.body) : undefined;
  const tlsRptEvaluation = evaluateTlsRpt(tlsRpt);
  const bimiEvaluation = evaluateBimi(bimi);
  return {
    findings,
    data: {
      domain: snapshot.domain,
      spf: {
        record: spf.record,
        records: spf.records,
        mechanisms: spf.mechanisms,
        lookups: spf.lookups,
        voidLookups: spf.voidLookups,
        allQualifier: spf.allQualifier,
        usesPtr: spf.usesPtr,
        includes: spf.includes,
        errors: spf.errors,
      },
      dmarc: {
        record: dmarc.record,
        records: dmarc.records,
        tags: dmarc.tags,
        policy: dmarc.policy,
        subdomainPolicy: dmarc.subdomainPolicy,
        effectivePolicy: dmarc.effectivePolicy,
        pct: dmarc.pct,
        reporting: dmarc.reporting,
        errors: [...dmarc.fatal, ...dmarc.warnings],
      },
      dkim: { domainkey: dkim.domainkey, selectorsFound: dkim.selectorsFound, selectorsTried: dkim.selectorsTried },
      mx: mx.mx.map((m) => ({
        host: m.host,
        preference: m.preference,
        addresses: m.addresses,
        address: m.address,
        starttls: m.starttls,
        tlsVersion: tlsEstablished(m.tls) ? m.tls.version : undefined,
        tlsVersionsOffered: m.tlsVersionsOffered,
        cipher: tlsEstablished(m.tls) ? m.tls.cipher : undefined,
        tlsError: m.tls && !tlsEstablished(m.tls) ? m.tls.failed : undefined,
        banner: m.banner,
        certificate: tlsEstablished(m.tls) ? m.tls.certificate : undefined,
        dane: m.dane,
        ...(m.tlsa
          ? { tlsa: m.tlsa, tlsaSigned: m.tlsaSigned, tlsaDnssec: m.tlsaDnssec, tlsaDnssecReason: m.tlsaDnssecReason, daneResult: verifyDane(daneMx.find((d) => d.host === m.host)!).result }
          : {}),
        error: m.error,
        skipped: m.skipped,
      })),
      nullMx: mx.nullMx,
      mtaSts: mx.mtaSts,
      mtaStsPolicy: {
        records: mtaSts.record.records,
        id: mtaSts.record.id,
        url: mtaSts.fetch?.url,
        status: mtaSts.fetch?.status,
        certificateTrusted: mtaSts.fetch?.certificateTrusted,
        fetchError: mtaSts.fetch?.error,
        mode: policy?.mode,
        maxAge: policy?.maxAge,
        mx: policy?.mx,
        errors: [...mtaSts.record.errors, ...(policy?.errors ?? [])],
      },
      tlsRpt: { record: tlsRptEvaluation.record, rua: tlsRptEvaluation.rua, errors: tlsRptEvaluation.errors },
      bimi: { record: bimiEvaluation.record, logo: bimiEvaluation.logo, authority: bimiEvaluation.authority, errors: bimiEvaluation.errors },
      sendsNoMail: sendsNoMail(snapshot),
    },
  };
}

/**
 * The email check, on the registrable domain: SPF evaluated like checkdmarc/internet.nl, DMARC,
 * DKIM presence, STARTTLS on each MX (port `settings.smtpPort`, 25 by default) with DANE checked
 * against the presented chain (the TLSA records validated with DNSSEC from the trust anchor, as in
 * the dns check), the MTA-STS policy, TLS-RPT and BIMI.
 */
export const emailCheck: CheckDefinition = {
  name: 'email',
  budgetMs: 15_000,
  needsAddress: false,
  // Records, and the STARTTLS conversation any sending mail server has with the MX.
  passive: 'runs',
  run: async ({ domain, settings, net, signal }) => {
    if (!domain) return { findings: [], data: { note: 'The target is an IP address: there is no domain whose mail to assess.' } };
    const snapshot = await probeEmail({
      dns: net.dns,
      smtp: net.smtp,
      http: net.http,
      domain: domain.toLowerCase(),
      allowPrivateTargets: settings.allowPrivateTargets,
      smtpPort: settings.smtpPort ?? 25,
      smtpTimeoutMs: SMTP_TIMEOUT_MS,
      ehloName: EHLO_NAME,
      trustAnchors: (settings.dnssecTrustAnchors ?? ROOT_TRUST_ANCHORS).map(parseTrustAnchor),
      signal,
    });
    if (snapshot.queries.answered === 0) throw new Error(`No DNS server answered about ${domain}'s mail records`);
    return analyzeEmail(snapshot);
  },
};

import type { CheckDefinition, CheckOutput } from '../check.js';
import { analyzeDkim } from './email/dkim.js';
import { analyzeDmarc, dmarcEnforced } from './email/dmarc.js';
import { type EmailSnapshot, probeEmail } from './email/email.probe.js';
import { analyzeMx, tlsEstablished } from './email/mx.js';
import { analyzeSpf } from './email/spf.js';

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

/** Analyze: SPF, DMARC, DKIM and MX findings, and the data the report shows. */
export function analyzeEmail(snapshot: EmailSnapshot): CheckOutput {
  const { spf, dmarc, dkim, mx } = snapshot;
  const findings = [
    ...analyzeSpf(spf, { dmarcEnforced: dmarcEnforced(dmarc) }),
    ...analyzeDmarc(dmarc),
    ...analyzeDkim(dkim, { sendsNoMail: sendsNoMail(snapshot) }),
    ...analyzeMx(mx),
  ];
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
        error: m.error,
        skipped: m.skipped,
      })),
      nullMx: mx.nullMx,
      mtaSts: mx.mtaSts,
      sendsNoMail: sendsNoMail(snapshot),
    },
  };
}

/**
 * The email check, on the registrable domain: SPF evaluated like checkdmarc/internet.nl, DMARC,
 * DKIM presence, and STARTTLS on each MX (port `settings.smtpPort`, 25 by default).
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
      domain: domain.toLowerCase(),
      allowPrivateTargets: settings.allowPrivateTargets,
      smtpPort: settings.smtpPort ?? 25,
      smtpTimeoutMs: SMTP_TIMEOUT_MS,
      ehloName: EHLO_NAME,
      signal,
    });
    if (snapshot.queries.answered === 0) throw new Error(`No DNS server answered about ${domain}'s mail records`);
    return analyzeEmail(snapshot);
  },
};

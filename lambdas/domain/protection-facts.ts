import type { AuditResultView, DaneView, DnssecView, MtaStsView, TlsView, WebHardeningView } from './audit-view.js';

/**
 * The report's protections in plain words, for a small-business owner: mail transport (MTA-STS,
 * TLS-RPT, BIMI, DANE), DNSSEC, the certificate (CAA, OCSP stapling, Certificate Transparency) and
 * the website's hardening (Permissions-Policy, security.txt, mixed content). One pure function of
 * the report view, so the results page and the PDF say the same sentences. A fact the report does
 * not hold (an older report, a check that did not run) is left out, never guessed.
 */

/** good: in place; warning: worth improving; problem: breaks or weakens something now; neutral: a fact. */
export type FactTone = 'good' | 'warning' | 'problem' | 'neutral';

export interface ProtectionFact {
  label: string;
  value: string;
  tone: FactTone;
}

export interface ProtectionGroup {
  id: 'email' | 'dns' | 'certificate' | 'web';
  title: string;
  facts: ProtectionFact[];
}

/** The words a reader sees next to a fact's tone (the colour is never the only signal). */
export const FACT_TONE_LABELS: Readonly<Record<FactTone, string>> = { good: 'OK', warning: 'Improve', problem: 'Fix', neutral: 'Info' };

const day = (iso: string) => iso.slice(0, 10);
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const loads = (n: number) => (n === 1 ? 'loads' : 'load');
const fact = (label: string, value: string, tone: FactTone): ProtectionFact => ({ label, value, tone });

/**
 * The groups that hold at least one fact, in reading order. The view may come over the wire from an
 * older API (the shared page's answer, a cached report): a section it lacks gives no facts.
 */
export function protectionFacts(view: Omit<AuditResultView, 'id'>): ProtectionGroup[] {
  const groups: ProtectionGroup[] = [
    { id: 'email', title: 'Email delivery', facts: emailFacts(view) },
    { id: 'dns', title: 'DNS', facts: view.dnssec ? dnssecFacts(view.dnssec) : [] },
    { id: 'certificate', title: 'Certificate', facts: (view.tls as TlsView | undefined) ? certificateFacts(view.tls) : [] },
    { id: 'web', title: 'Website hardening', facts: view.web_hardening ? webFacts(view.web_hardening) : [] },
  ];
  return groups.filter((group) => group.facts.length > 0);
}

function emailFacts(view: Omit<AuditResultView, 'id'>): ProtectionFact[] {
  const e = view.email_security as AuditResultView['email_security'] | undefined;
  if (e?.status !== 'completed') return [];
  const facts: ProtectionFact[] = [];
  if (e.mtaSts !== undefined) facts.push(mtaStsFact(e.mtaSts));
  if (e.tlsRpt !== undefined) {
    facts.push(
      e.tlsRpt === null
        ? fact('TLS-RPT', 'not published: nobody is told when encrypted delivery to your mail servers fails', 'neutral')
        : e.tlsRpt.valid
          ? fact('TLS-RPT', `failure reports go to ${e.tlsRpt.rua.join(', ')}`, 'good')
          : fact('TLS-RPT', `published but invalid, so no reports are sent: ${e.tlsRpt.errors[0] ?? 'unreadable record'}`, 'warning'),
    );
  }
  if (e.bimi !== undefined) {
    const b = e.bimi;
    facts.push(
      b === null
        ? fact('BIMI', 'not published (optional: it shows your logo next to your mail in some inboxes)', 'neutral')
        : !b.valid
          ? fact('BIMI', `published but malformed, so no logo is shown: ${b.errors[0] ?? 'unreadable record'}`, 'warning')
          : b.logo === null
            ? fact('BIMI', 'published without a logo: the domain declines to show one', 'neutral')
            : fact('BIMI', `logo at ${b.logo}; ${b.authority ? `mark certificate at ${b.authority}` : 'no mark certificate (Gmail and Apple Mail need one to show the logo)'}`, b.authority ? 'good' : 'neutral'),
    );
  }
  for (const mx of Array.isArray(e.mx) ? e.mx : []) if (mx.dane) facts.push(daneFact(mx.host, mx.dane));
  return facts;
}

function mtaStsFact(m: MtaStsView | null): ProtectionFact {
  if (m === null) return fact('MTA-STS', 'not published: sending servers may deliver your mail unencrypted if someone interferes', 'neutral');
  if (!m.policyFetched) return fact('MTA-STS', `published, but senders cannot read the policy (${m.fetchProblem ?? 'not fetched'}), so it protects nothing`, 'problem');
  const coverage = m.mxTotal === 0 ? 'no mail servers to cover' : `covers ${m.mxCovered} of ${count(m.mxTotal, 'mail server')}`;
  const missing = m.uncoveredMx.length > 0 ? ` (not ${m.uncoveredMx.join(', ')})` : '';
  const age = m.maxAgeSeconds !== null ? `, remembered for ${m.maxAgeSeconds >= 86_400 ? count(Math.floor(m.maxAgeSeconds / 86_400), 'day') : count(m.maxAgeSeconds, 'second')}` : '';
  const errors = m.errors.length > 0 ? `; errors: ${m.errors.join('; ')}` : '';
  const value = `${m.mode ?? 'no mode'} mode, ${coverage}${missing}${age}${errors}`;
  const tone: FactTone =
    m.errors.length > 0 || (m.mode === 'enforce' && m.uncoveredMx.length > 0) ? 'problem' : m.mode === 'enforce' ? 'good' : 'warning';
  return fact('MTA-STS', value, tone);
}

function daneFact(host: string, d: DaneView): ProtectionFact {
  const label = `DANE (${host})`;
  if (d.dnssec === 'bogus') return fact(label, "the TLSA records' DNSSEC signatures do not validate: servers that check DANE will not deliver to it", 'problem');
  if (d.dnssec === 'indeterminate') return fact(label, `${count(d.records, 'TLSA record')} found, not checked (their DNSSEC signatures could not be validated)`, 'neutral');
  if (d.dnssec === 'insecure') return fact(label, `${count(d.records, 'TLSA record')} that DNSSEC does not vouch for (unsigned, or no DS record for the zone): sending servers ignore them`, 'warning');
  if (d.signed === false) return fact(label, `${count(d.records, 'TLSA record')} without DNSSEC signatures: sending servers ignore them`, 'warning');
  switch (d.result) {
    case 'match':
      return fact(label, "the mail server's certificate matches its TLSA record", 'good');
    case 'mismatch':
      return fact(label, "the mail server's certificate does not match its TLSA records: servers that check DANE will not deliver to it", 'problem');
    case 'unusable':
      return fact(label, 'the TLSA records are of a kind mail servers cannot use, so DANE gives no protection', 'warning');
    default:
      return fact(label, `${count(d.records, 'TLSA record')} found, not checked (no encrypted connection to the server)`, 'neutral');
  }
}

function dnssecFacts(d: DnssecView): ProtectionFact[] {
  const facts: ProtectionFact[] = [];
  const until = d.signaturesExpire ? `; signatures valid until ${day(d.signaturesExpire)}` : '';
  if (d.validation === 'secure') facts.push(fact('DNSSEC', `signed and valid${until}`, 'good'));
  else if (d.validation === 'bogus' || d.status === 'broken')
    facts.push(
      fact(
        'DNSSEC',
        `signed but broken${d.signatureDatesWrong ? ' (signatures expired or not yet valid)' : ''}: resolvers that check DNSSEC cannot reach your site or mail${d.reason ? `. ${d.reason}` : ''}`,
        'problem',
      ),
    );
  else if (d.status === 'signed-without-ds') facts.push(fact('DNSSEC', 'signed, but the registrar publishes no DS record, so resolvers treat the domain as unsigned', 'warning'));
  else if (d.status === 'unsigned' || d.validation === 'insecure') facts.push(fact('DNSSEC', 'not signed: forged answers about your domain cannot be told from real ones', 'warning'));
  else if (d.validation === 'indeterminate') facts.push(fact('DNSSEC', `signed; the signatures could not be checked${d.reason ? `: ${d.reason}` : ''}`, 'neutral'));
  else facts.push(fact('DNSSEC', 'signed (the signatures were not checked in this scan)', 'neutral'));
  if (d.algorithms.length > 0) {
    const deprecated = d.algorithms.filter((a) => a.deprecated);
    facts.push(
      deprecated.length > 0
        ? fact('DNSSEC algorithm', `${deprecated.map((a) => a.name).join(', ')} is deprecated: move to ECDSA P-256/SHA-256`, 'warning')
        : fact('DNSSEC algorithm', d.algorithms.map((a) => a.name).join(', '), 'neutral'),
    );
  }
  return facts;
}

function certificateFacts(t: TlsView): ProtectionFact[] {
  if (t.status !== 'completed') return [];
  const facts: ProtectionFact[] = [];
  if (t.caa) {
    const c = t.caa;
    const issuer = c.issuer ?? 'the authority that issued your certificate';
    facts.push(
      c.issuerAllowed === true
        ? fact('CAA', `allows ${issuer}, which issued your certificate`, 'good')
        : c.issuerAllowed === false
          ? fact('CAA', `does not allow ${issuer}, which issued your certificate (allowed: ${c.allowedIssuers.join(', ') || 'none'}): its next renewal will fail`, 'problem')
          : c.records.length === 0
            ? fact('CAA', 'no CAA record: any certificate authority may issue certificates for your site', 'neutral')
            : fact('CAA', `${count(c.records.length, 'record')}; ${c.note ?? 'no verdict'}`, 'neutral'),
    );
  }
  if (t.ocspStapling) {
    const o = t.ocspStapling;
    facts.push(
      o.stapled === true
        ? fact('OCSP stapling', 'yes: the server sends proof that its certificate is not revoked', 'good')
        : o.stapled === false
          ? o.responderListed
            ? fact('OCSP stapling', "no: visitors' browsers must ask the certificate authority themselves, or skip the check", 'warning')
            : fact('OCSP stapling', 'not needed: the certificate names no OCSP responder', 'neutral')
          : fact('OCSP stapling', 'not measured', 'neutral'),
    );
  }
  if (t.certificateTransparency && t.certificateTransparency.scts !== null) {
    const ct = t.certificateTransparency;
    facts.push(
      ct.malformed
        ? fact('Certificate Transparency', 'the certificate carries a list of timestamps that cannot be read', 'warning')
        : ct.scts! > 0
          ? fact('Certificate Transparency', `publicly logged: ${count(ct.scts!, 'signed timestamp')} (SCTs) in the certificate`, 'good')
          : fact('Certificate Transparency', 'no signed timestamps (SCTs) in the certificate: Chrome and Safari refuse a public certificate without them unless the server sends them another way', 'warning'),
    );
  }
  return facts;
}

function webFacts(h: WebHardeningView): ProtectionFact[] {
  const facts: ProtectionFact[] = [];
  const p = h.permissionsPolicy;
  if (p) {
    const listed = (names: string[]) => (names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', '));
    facts.push(
      !p.present
        ? fact('Permissions-Policy', 'not set: pages and embedded content may ask visitors for camera, microphone or location', 'neutral')
        : p.valid === false
          ? fact('Permissions-Policy', 'set, but browsers ignore it: it does not parse', 'warning')
          : p.allowedToAll.length > 0
            ? fact('Permissions-Policy', `grants ${listed(p.allowedToAll)} to every site, embedded ones included`, 'warning')
            : fact('Permissions-Policy', p.blocked.length > 0 ? `set; switches off ${listed(p.blocked)}` : 'set', 'good'),
    );
  }
  const s = h.securityTxt;
  if (s) {
    if (!s.found) facts.push(fact('security.txt', 'not published: someone who finds a flaw in your site has no listed way to tell you', 'neutral'));
    else {
      const extras = [
        s.contacts.length > 0 ? `contact ${s.contacts.join(', ')}` : 'no Contact',
        s.signed === true ? 'signed' : '',
        s.canonicalMatches === false ? 'its Canonical address is not where it is served' : '',
      ].filter(Boolean);
      const tail = extras.length > 0 ? `; ${extras.join('; ')}` : '';
      if (s.expired === true) facts.push(fact('security.txt', `expired on ${day(s.expires!)}${tail}`, 'warning'));
      else if (s.expires) facts.push(fact('security.txt', `published, valid until ${day(s.expires)}${tail}`, s.contacts.length > 0 && s.canonicalMatches !== false ? 'good' : 'warning'));
      else if (s.signed === null && s.contacts.length === 0) facts.push(fact('security.txt', 'published', 'neutral'));
      else facts.push(fact('security.txt', `published without a valid Expires date${tail}`, 'warning'));
    }
  }
  const m = h.mixedContent;
  if (m?.checked) {
    const example = m.examples.length > 0 ? ` (for example ${m.examples[0]})` : '';
    const upgraded = m.upgradeInsecureRequests ? '; the page asks browsers to fetch plain-HTTP resources over HTTPS instead' : '';
    facts.push(
      m.active > 0
        ? fact('Mixed content', `${count(m.active, 'script, style or frame', 'scripts, styles or frames')} on the home page ${loads(m.active)} over plain HTTP${example}: browsers block ${m.active === 1 ? 'it' : 'them'}${upgraded}`, m.upgradeInsecureRequests ? 'warning' : 'problem')
        : m.passive > 0
          ? fact('Mixed content', `${count(m.passive, 'image or media file', 'images or media files')} on the home page ${loads(m.passive)} over plain HTTP${example}${upgraded}`, m.upgradeInsecureRequests ? 'neutral' : 'warning')
          : fact('Mixed content', 'none: everything on the home page loads over HTTPS', 'good'),
    );
  }
  return facts;
}

/**
 * CAA against the served certificate (pure): does the domain's CAA set (RFC 8659, as the dns check
 * collected it) allow the authority that issued the leaf? The issuer's organisation is mapped to
 * the CAA issuer domains that authority documents; an issuer not in the table gets no verdict.
 */
import type { X509Certificate } from 'node:crypto';
import type { TlsIssue } from './issues.js';

/** Issuer organisation (as in the certificate's issuer O=) → the CAA issuer domains its CA accepts. */
const CAA_DOMAINS: readonly { organisation: RegExp; domains: readonly string[] }[] = [
  { organisation: /^let'?s encrypt$/i, domains: ['letsencrypt.org'] },
  { organisation: /^digicert/i, domains: ['digicert.com', 'symantec.com', 'geotrust.com', 'rapidssl.com', 'thawte.com', 'digitalcertvalidation.com'] },
  { organisation: /^(sectigo|comodo)/i, domains: ['sectigo.com', 'comodoca.com', 'comodo.com', 'usertrust.com', 'trust-provider.com'] },
  { organisation: /^globalsign/i, domains: ['globalsign.com'] },
  { organisation: /^google trust services/i, domains: ['pki.goog'] },
  { organisation: /^amazon/i, domains: ['amazon.com', 'amazontrust.com', 'awstrust.com', 'amazonaws.com'] },
  { organisation: /^zerossl/i, domains: ['sectigo.com', 'zerossl.com'] },
  { organisation: /^entrust/i, domains: ['entrust.net', 'affirmtrust.com'] },
  { organisation: /^(godaddy|go daddy)/i, domains: ['godaddy.com', 'starfieldtech.com'] },
  { organisation: /^starfield/i, domains: ['starfieldtech.com', 'godaddy.com'] },
  { organisation: /^buypass/i, domains: ['buypass.com', 'buypass.no'] },
  { organisation: /^ssl corporation/i, domains: ['ssl.com'] },
  { organisation: /^microsoft/i, domains: ['microsoft.com'] },
  { organisation: /^certum|^asseco|^unizeto/i, domains: ['certum.pl', 'certum.eu'] },
];

export interface CaaCoverage {
  /** Where the CAA set came from: the dns check, or why it could not be used. */
  source: 'dns check' | 'no dns result' | 'dns check not finished in time' | `dns check failed: ${string}`;
  /** The name whose CAA set governs the host (null: no CAA record up to the registrable domain). */
  owner: string | null;
  records: string[];
  /** The leaf's issuer organisation, and the CAA domains it maps to ([] = not in the table). */
  issuerOrganisation: string | null;
  issuerDomains: string[];
  /** Which tag decided (issuewild for a certificate that covers the host by a wildcard only). */
  tag: 'issue' | 'issuewild' | null;
  /** The issuer domains the records allow. */
  allowed: string[];
  /** true / false, or null with the reason no verdict was given. */
  issuerAllowed: boolean | null;
  reason?: string;
}

/** The issuer O= of a certificate. */
export function issuerOrganisation(certificate: X509Certificate): string | null {
  const match = /^O=(.+)$/m.exec(certificate.issuer);
  return match ? match[1]!.trim() : null;
}

/** The CAA issuer domains of an issuer organisation ([] when unknown). */
export function caaDomainsFor(organisation: string | null): string[] {
  if (!organisation) return [];
  return [...(CAA_DOMAINS.find((entry) => entry.organisation.test(organisation))?.domains ?? [])];
}

/** `0 issue "letsencrypt.org; accounturi=…"` → { tag: 'issue', domain: 'letsencrypt.org' } ('' for `;`, nobody). */
function parseRecord(record: string): { tag: string; domain: string } | null {
  const match = /^\s*\d+\s+(\S+)\s+"?(.*?)"?\s*$/.exec(record);
  if (!match) return null;
  return { tag: match[1]!.toLowerCase(), domain: match[2]!.split(';')[0]!.trim().toLowerCase().replace(/\.$/, '') };
}

/** True when the leaf names the host only through a wildcard (then issuewild governs, RFC 8659 §4.3). */
function coveredByWildcardOnly(sans: readonly string[], host: string): boolean {
  const names = sans.filter((san) => san.startsWith('DNS:')).map((san) => san.slice(4).toLowerCase());
  const name = host.toLowerCase();
  return !names.includes(name) && names.some((san) => san.startsWith('*.') && name.endsWith(san.slice(1)) && !name.slice(0, -san.length + 1).includes('.'));
}

export interface CaaInput {
  host: string;
  source: CaaCoverage['source'];
  caa: { owner: string | undefined; records: readonly string[] } | null;
  leaf: X509Certificate | undefined;
  /** subjectAltName entries as the certificate summary writes them (DNS:…). */
  sans: readonly string[];
  /** Only a trusted certificate came from a CA that CAA speaks about. */
  trusted: boolean;
}

/** Compare the CAA set with the leaf's issuer. */
export function caaCoverage(input: CaaInput): { report: CaaCoverage; issues: TlsIssue[] } {
  const organisation = input.leaf ? issuerOrganisation(input.leaf) : null;
  const issuerDomains = caaDomainsFor(organisation);
  const base = { source: input.source, owner: input.caa?.owner ?? null, records: [...(input.caa?.records ?? [])], issuerOrganisation: organisation, issuerDomains };
  const none = (reason: string) => ({ report: { ...base, tag: null, allowed: [], issuerAllowed: null, reason }, issues: [] });
  if (!input.caa) return none('no CAA data from the dns check');
  if (!input.leaf) return none('no certificate');
  if (!input.trusted) return none('the certificate is not publicly trusted, so no CA checked CAA for it');
  const parsed = input.caa.records.map(parseRecord).filter((record) => record !== null);
  const wildcard = coveredByWildcardOnly(input.sans, input.host);
  const issuewild = parsed.filter((record) => record.tag === 'issuewild');
  const tag = wildcard && issuewild.length > 0 ? 'issuewild' : 'issue';
  const governing = parsed.filter((record) => record.tag === tag);
  if (governing.length === 0) return none('no CAA issue restriction: every CA may issue');
  const allowed = governing.map((record) => record.domain).filter((domain) => domain !== '');
  if (issuerDomains.length === 0) return none(`issuer ${organisation ?? '(no organisation)'} is not in the table of CAA issuer domains: no verdict`);
  const issuerAllowed = issuerDomains.some((domain) => allowed.includes(domain));
  const report: CaaCoverage = { ...base, tag, allowed, issuerAllowed };
  if (issuerAllowed) return { report, issues: [] };
  return {
    report,
    issues: [
      {
        id: 'tls.caa.issuer-not-allowed',
        severity: 'medium',
        evidence: `certificate issued by ${organisation} (CAA ${issuerDomains.join(' / ')}), but ${input.caa.owner} CAA ${tag} allows only ${allowed.length > 0 ? allowed.join(', ') : 'no CA (";")'}`,
      },
    ],
  };
}

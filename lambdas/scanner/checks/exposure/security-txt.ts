/**
 * security.txt read against RFC 9116 (pure): the fields of the body the exposure check fetched at
 * /.well-known/security.txt, with its OpenPGP cleartext signature (if any) taken off first.
 * Judged: Contact present (§2.5.3), Expires present once, well-formed and in the future, and not
 * more than a year ahead (§2.5.5), Canonical naming the URL the file was fetched from (§2.5.2),
 * served over HTTPS (§3), and whether it is signed (§2.3). The signature is recognised, not verified.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { Sample } from './fetcher.js';

const finding = findingsFor('exposure');
const CATEGORY = 'Web Security';
const YEAR_MS = 365 * 86_400_000;

/** RFC 9116 §2.5 and the IANA registry (CSAF added since). */
const KNOWN_FIELDS = ['acknowledgments', 'canonical', 'contact', 'encryption', 'expires', 'hiring', 'policy', 'preferred-languages', 'csaf'];

/** RFC 3339 date-time, as §2.5.5 requires (a date alone is not one). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export interface SecurityTxtAnalysis {
  /** The URL the file was asked at and the URL that answered (they differ after a redirect). */
  url: string;
  fetchedFrom: string;
  signed: boolean;
  contacts: string[];
  expires: { value: string | null; date: string | null; valid: boolean; count: number };
  /** Days until Expires (negative: past); null without a valid Expires. */
  expiresInDays: number | null;
  canonical: { listed: string[]; matches: boolean | null };
  /** Every field read, by lower-case name, in order. */
  fields: { name: string; value: string }[];
  unknownFields: string[];
}

/** The signed text of an OpenPGP cleartext-signed message (RFC 4880 §7), or null when it is not one. */
function signedText(body: string): string | null {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.trim() === '-----BEGIN PGP SIGNED MESSAGE-----');
  if (start < 0) return null;
  const blank = lines.findIndex((line, index) => index > start && line.trim() === '');
  const signature = lines.findIndex((line, index) => index > blank && line.trim() === '-----BEGIN PGP SIGNATURE-----');
  const end = lines.findIndex((line, index) => index > signature && line.trim() === '-----END PGP SIGNATURE-----');
  if (blank < 0 || signature < 0 || end < 0) return null;
  // Dash-escaped lines ("- -----…") lose their "- ".
  return lines.slice(blank + 1, signature).map((line) => line.replace(/^- /, '')).join('\n');
}

/** The RFC 9116 fields of a text body (comments and other lines skipped). */
export function securityTxtFields(text: string): { name: string; value: string }[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => /^([A-Za-z0-9-]+):\s*(.*?)\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ name: match[1]!.toLowerCase(), value: match[2]! }));
}

/**
 * Analyze a security.txt body; null when it is not one (no RFC 9116 field at all, say an HTML page
 * or an empty answer). `url` is the address it was asked at.
 */
export function analyzeSecurityTxt(sample: Pick<Sample, 'url' | 'body'>, url: string, now: Date): SecurityTxtAnalysis | null {
  const signed = signedText(sample.body);
  const fields = securityTxtFields(signed ?? sample.body);
  if (!fields.some((field) => KNOWN_FIELDS.includes(field.name))) return null;
  const values = (name: string) => fields.filter((field) => field.name === name).map((field) => field.value);
  const expiresValues = values('expires');
  const expiresValue = expiresValues[0] ?? null;
  const parsed = expiresValue !== null && RFC3339.test(expiresValue) ? new Date(expiresValue.replace(' ', 'T')) : null;
  const valid = expiresValues.length === 1 && parsed !== null && !Number.isNaN(parsed.getTime());
  const canonical = values('canonical');
  return {
    url,
    fetchedFrom: sample.url,
    signed: signed !== null,
    contacts: values('contact'),
    expires: { value: expiresValue, date: valid ? parsed!.toISOString() : null, valid, count: expiresValues.length },
    expiresInDays: valid ? Math.floor((parsed!.getTime() - now.getTime()) / 86_400_000) : null,
    canonical: { listed: canonical, matches: canonical.length === 0 ? null : canonical.some((uri) => uri === url || uri === sample.url) },
    fields,
    unknownFields: [...new Set(fields.map((field) => field.name).filter((name) => !KNOWN_FIELDS.includes(name)))],
  };
}

const RFC = 'RFC 9116';
const GENERATOR = 'securitytxt.org generates a valid file';

/** Findings for a published security.txt that falls short of RFC 9116. */
export function securityTxtAnalysisFindings(analysis: SecurityTxtAnalysis, now: Date): Finding[] {
  const findings: Finding[] = [];
  const at = `GET ${analysis.url}`;
  if (analysis.contacts.length === 0) {
    findings.push(
      finding({
        id: 'exposure.security-txt.no-contact',
        title: 'security.txt names no Contact',
        severity: 'low',
        category: CATEGORY,
        evidence: `${at}: fields ${[...new Set(analysis.fields.map((field) => field.name))].join(', ')}, no Contact`,
        description: `Contact is the one field ${RFC} requires: it is how someone who finds a security problem reaches you. Without it the file does not do its job.`,
        recommendation: `Add a Contact line with an address that is read, e.g. \`Contact: mailto:security@example.com\` (${GENERATOR}).`,
      }),
    );
  }
  const { expires } = analysis;
  if (!expires.valid) {
    const why = expires.count === 0 ? 'no Expires field' : expires.count > 1 ? `Expires appears ${expires.count} times` : `Expires "${expires.value}" is not an RFC 3339 date-time`;
    findings.push(
      finding({
        id: 'exposure.security-txt.expires-invalid',
        title: 'security.txt has no valid Expires date',
        severity: 'low',
        category: CATEGORY,
        evidence: `${at}: ${why}`,
        description: `${RFC} requires exactly one Expires field (a date-time such as 2027-06-30T23:00:00Z) so that readers know the contact details are current. Tools that follow the standard treat a file without it as invalid.`,
        recommendation: `Add one line \`Expires: <date less than a year ahead>T00:00:00Z\` and renew it before it passes (${GENERATOR}).`,
      }),
    );
  } else if (analysis.expiresInDays !== null && new Date(expires.date!).getTime() <= now.getTime()) {
    findings.push(
      finding({
        id: 'exposure.security-txt.expired',
        title: 'security.txt has expired',
        severity: 'low',
        category: CATEGORY,
        evidence: `${at}: Expires ${expires.value} (${-analysis.expiresInDays} days ago)`,
        description: `Past its Expires date the file is stale by ${RFC}: researchers are told not to trust its contact details, so a vulnerability report may never reach you.`,
        recommendation: 'Check that the Contact addresses still work, then set Expires to a date less than a year ahead, and renew it on a schedule.',
      }),
    );
  } else if (new Date(expires.date!).getTime() - now.getTime() > YEAR_MS) {
    findings.push(
      finding({
        id: 'exposure.security-txt.expires-far',
        title: 'security.txt expires more than a year ahead',
        severity: 'info',
        category: CATEGORY,
        evidence: `${at}: Expires ${expires.value} (${analysis.expiresInDays} days ahead)`,
        description: `${RFC} recommends an Expires less than a year ahead, so that the file is reviewed and contact details that stopped working do not linger.`,
        recommendation: 'Set Expires to a date within the next year and renew it when you review the contacts.',
      }),
    );
  }
  if (analysis.canonical.matches === false) {
    findings.push(
      finding({
        id: 'exposure.security-txt.canonical-mismatch',
        title: "security.txt's Canonical does not name this address",
        severity: 'low',
        category: CATEGORY,
        evidence: `${at}: Canonical ${analysis.canonical.listed.join(', ')}`,
        description: `${RFC} says a file whose Canonical URIs do not include the address it was fetched from should be treated as not belonging there: usually a file copied from another site or domain, whose contacts may not be yours.`,
        recommendation: `List this file's own address as Canonical (\`Canonical: ${analysis.url}\`), one Canonical line per address the same file is served at.`,
      }),
    );
  }
  if (new URL(analysis.fetchedFrom).protocol !== 'https:') {
    findings.push(
      finding({
        id: 'exposure.security-txt.not-https',
        title: 'security.txt is served over plain HTTP',
        severity: 'low',
        category: CATEGORY,
        evidence: `${at}: answered at ${analysis.fetchedFrom}`,
        description: `${RFC} requires the file to be served over HTTPS: over plain HTTP anyone on the path can change the contact details a researcher reads.`,
        recommendation: 'Serve the site, and /.well-known/security.txt with it, over HTTPS.',
      }),
    );
  }
  if (!analysis.signed) {
    findings.push(
      finding({
        id: 'exposure.security-txt.unsigned',
        title: 'security.txt is not signed',
        severity: 'info',
        category: CATEGORY,
        evidence: `${at}: no OpenPGP cleartext signature`,
        description: `${RFC} recommends signing the file (an OpenPGP cleartext signature) so that readers can check the contact details came from you and not from someone who changed the file.`,
        recommendation: 'Sign it with your security team\'s OpenPGP key (`gpg --clearsign security.txt`), publish that key at the Encryption address, and re-sign after each change.',
      }),
    );
  }
  return findings;
}

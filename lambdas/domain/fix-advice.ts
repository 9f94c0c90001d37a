/**
 * Issue 29 item 8: a fix said in plain words first — what the change does for the visitors or the
 * owner — and the technical line (a header value, a DNS record, a server setting) after it, for
 * whoever makes the change. The results page folds the technical line under "Technical details";
 * the PDF prints it after the plain sentence, labelled.
 *
 * The scanner's recommendation stays as it is (the API's `recommendation`); this reads it. A finding
 * family with a sentence below gets that sentence; otherwise the recommendation's sentences without
 * raw values come first and those with them are the technical line. A recommendation with no raw
 * value is already plain and has no technical line.
 */

export interface FixAdviceView {
  /** What the change does, in plain words. */
  plain: string;
  /** The exact change (header value, record, setting), or null when the advice has none. */
  technical: string | null;
}

/** What the change does, by finding id prefix (the most specific first wins). */
const PLAIN_BY_FINDING: readonly [prefix: string, plain: string][] = [
  ['http.csp.', 'Tells visitors’ browsers to run only the scripts and content your site really uses, so a script an attacker slips into a page cannot run.'],
  ['http.xfo.', 'Stops other sites from showing your pages inside theirs, so visitors cannot be tricked into clicking buttons they cannot see.'],
  ['http.xcto.', 'Stops browsers from guessing what a file is, so an uploaded file cannot be run as a script in your visitors’ browsers.'],
  ['http.referrer-policy.', 'Keeps the full address of your pages, and anything in it, private when visitors follow a link to another site.'],
  ['http.permissions-policy.', 'Turns off browser features your pages do not use (camera, microphone, location), so a script on them cannot ask visitors for them.'],
  ['http.disclosure.', 'Stops the site from telling everyone which software and version it runs, which saves attackers time.'],
  ['http.trace', 'Turns off a debugging feature no website needs, which could expose visitors’ login cookies.'],
  ['http.cookies.', 'Keeps your visitors’ cookies, logins included, from being sent over unencrypted connections or to other sites.'],
  ['http.mixed-content', 'Makes every part of your pages load securely, so nobody on the network can change what visitors see.'],
  ['tls.hsts.', 'Makes browsers always use the secure (HTTPS) version of your site, even when a visitor types the address without it.'],
  ['tls.redirect.', 'Sends every visitor to the secure (HTTPS) version of your site.'],
  ['tls.protocol.', 'Turns off old encryption that is no longer safe; every current browser keeps working.'],
  ['tls.cipher.', 'Turns off weak encryption settings so that nobody can read or change the connection to your site.'],
  ['email.dmarc.no-rua', 'Sends you regular reports of who sends email in your domain’s name, so you can spot fake mail and fix your own.'],
  ['email.dmarc.', 'Tells mail providers what to do with email that pretends to come from your domain, so fake mail in your name is less likely to reach anyone.'],
  ['email.spf.', 'Tells mail providers which servers may send your domain’s email, so mail from anyone else in your name is treated as suspicious.'],
  ['dns.caa.', 'Lets only the certificate authority you chose issue certificates for your domain.'],
  ['dns.axfr.', 'Stops strangers from downloading the full list of your domain’s hosts and addresses.'],
  ['exposure.server-status', 'Hides a page that shows strangers who is visiting your site and what the server is doing.'],
  ['wordpress.version-disclosed', 'Stops the site from telling everyone which WordPress version it runs; keeping it updated is what protects it.'],
];

/** Raw values: inline code, CSP keywords, a "Header-Name: value", a "key=value" tag, SPF's "-all", a markup tag. */
const TECHNICAL = /`|'(self|none|unsafe-inline)'|\b[A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)+:\s*\S|\b[a-z][a-z-]*=\S|[~-]all\b|<[a-zA-Z]/;

export const hasRawValue = (text: string): boolean => TECHNICAL.test(text);

/** Sentences, split after . ! ? before a capital (so "e.g. `add_header …`" stays whole). */
const sentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?])\s+(?=[A-Z])/)
    .map((s) => s.trim())
    .filter(Boolean);

const FALLBACK_PLAIN = 'Your web host or developer can make this change; the exact setting is below.';

/** The plain sentence and the technical line of a finding's recommendation. */
export function fixAdvice(finding: { id: string; recommendation: string }): FixAdviceView {
  const recommendation = finding.recommendation.trim();
  const known = PLAIN_BY_FINDING.find(([prefix]) => finding.id.startsWith(prefix))?.[1];
  if (known) return { plain: known, technical: recommendation || null };
  if (!hasRawValue(recommendation)) return { plain: recommendation, technical: null };
  const parts = sentences(recommendation);
  const plain = parts.filter((s) => !hasRawValue(s));
  const technical = parts.filter((s) => hasRawValue(s));
  return { plain: plain.length > 0 ? plain.join(' ') : FALLBACK_PLAIN, technical: technical.join(' ') };
}

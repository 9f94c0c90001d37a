/**
 * Analyze: what the breach lookups mean for the business, as findings and as the data the
 * results page's password breaches card shows. Pure: the clock is a parameter.
 */
import type { Finding, Severity } from '../../../domain/audit.js';
import { type CheckOutput, findingsFor } from '../../check.js';
import type { Breach, LookupOutcome } from '../../net/hibp-client.js';
import { maskEmail, maskLocal } from './addresses.js';
import type { BreachesSnapshot } from './breaches.probe.js';

/**
 * 'Password Security': the spec's scan area is "password breaches (business email scanning, MFA
 * advice)", and what the findings ask for is password and sign-in hygiene, not breach forensics.
 */
export const BREACHES_CATEGORY = 'Password Security';
export const BREACH_SOURCE = 'Have I Been Pwned';
/** A password breach this recent (by breach date or by the date HIBP loaded it) makes an address high severity. */
export const RECENT_YEARS = 3;
/** Data classes that put passwords in attackers' hands (HIBP's names). */
const PASSWORD_CLASSES = new Set(['passwords', 'historical passwords']);
/** Breaches exposing nothing beyond these are low severity: spam and phishing, not account takeover. */
const CONTACT_ONLY_CLASSES = new Set(['email addresses', 'names']);
/** Evidence lists at most this many breaches or aliases; the data holds them all. */
const EVIDENCE_ITEMS = 10;

export type BreachesStatus = 'ok' | 'not-configured' | Exclude<LookupOutcome, 'ok'>;

/** The check's outcome: findings and data, or why the lookups failed (the check then ends as `error`). */
export type BreachesAnalysis = { status: 'ok'; output: CheckOutput } | { status: Exclude<LookupOutcome, 'ok'>; reason: string };

const finding = findingsFor('breaches');

/** Multi-factor advice every breaches finding carries, concrete enough to act on. */
export const MFA_ADVICE =
  'Turn on multi-factor authentication for email, Microsoft 365 or Google Workspace, banking and the website\'s admin: ' +
  'an authenticator app (Microsoft Authenticator, Google Authenticator) or, stronger still, passkeys or a hardware security key; ' +
  'SMS codes are better than nothing but the weakest choice. Use a password manager (Bitwarden, 1Password, the one built into your browser) so every account gets its own unique password.';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const exposesPasswords = (b: Breach) => b.dataClasses.some((c) => PASSWORD_CLASSES.has(c.toLowerCase()));
const contactOnly = (b: Breach) => b.dataClasses.every((c) => CONTACT_ONLY_CLASSES.has(c.toLowerCase()));

function isRecent(breach: Breach, now: Date): boolean {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RECENT_YEARS);
  // The added date counts too: a breach first traded years after it happened is fresh to attackers.
  return [breach.breachDate, breach.addedDate].some((d) => d !== undefined && Date.parse(d) >= cutoff.getTime());
}

/**
 * High when a breach within the last three years exposed passwords; low when every breach
 * exposed only email addresses and names; medium otherwise (older passwords, or other personal data).
 */
export function accountSeverity(breaches: readonly Breach[], now: Date): Exclude<Severity, 'critical' | 'info'> {
  if (breaches.some((b) => exposesPasswords(b) && isRecent(b, now))) return 'high';
  if (breaches.every(contactOnly)) return 'low';
  return 'medium';
}

function describeBreach(b: Breach): string {
  const flags = [b.isVerified ? undefined : 'unverified', b.isFabricated ? 'likely fabricated' : undefined, b.isSpamList ? 'spam list' : undefined].filter(Boolean);
  return `${b.title} (${b.breachDate}${flags.length > 0 ? `, ${flags.join(', ')}` : ''}): ${b.dataClasses.join(', ') || 'no data classes listed'}`;
}

const newestFirst = (a: Breach, b: Breach) => b.breachDate.localeCompare(a.breachDate) || a.name.localeCompare(b.name);

function listed<T>(items: readonly T[], show: (item: T) => string): string {
  const shown = items.slice(0, EVIDENCE_ITEMS).map(show).join('; ');
  return items.length > EVIDENCE_ITEMS ? `${shown}; and ${items.length - EVIDENCE_ITEMS} more` : shown;
}

/** `A`, `A and B`, `A, B and C`, `A, B, … and 3 others` for names in a sentence. */
function names(items: readonly string[]): string {
  const shown = items.slice(0, EVIDENCE_ITEMS);
  const rest = items.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} others`;
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

function accountFinding(email: string, breaches: Breach[], now: Date): Finding {
  const severity = accountSeverity(breaches, now);
  const sorted = [...breaches].sort(newestFirst);
  const masked = maskEmail(email);
  const titles = sorted.map((b) => b.title);
  const recentPasswords = sorted.filter((b) => exposesPasswords(b) && isRecent(b, now));
  const olderPasswords = sorted.filter((b) => exposesPasswords(b) && !isRecent(b, now));
  const why =
    severity === 'high'
      ? `${names(recentPasswords.map((b) => `${b.title} (${b.breachDate})`))} exposed passwords within the last ${RECENT_YEARS} years: those email and password pairs are fresh and actively traded.`
      : olderPasswords.length > 0
        ? `The breaches that exposed passwords (${names(olderPasswords.map((b) => b.title))}) are more than ${RECENT_YEARS} years old, but an old password still works wherever it was never changed.`
        : severity === 'low'
          ? 'Only the address (and a name) was exposed: expect more spam and phishing aimed at it, not account takeover by itself.'
          : 'No password was exposed, but the personal data that was helps attackers write convincing phishing emails aimed at this address.';
  return finding({
    id: 'breaches.account',
    title: `${masked} appears in ${plural(breaches.length, 'known data breach', 'known data breaches')}`,
    severity,
    category: BREACHES_CATEGORY,
    evidence: `${masked}: ${listed(sorted, describeBreach)}. Source: ${BREACH_SOURCE}.`,
    description:
      `${BREACH_SOURCE} lists this business address in ${plural(breaches.length, 'breach', 'breaches')} (${names(titles)}). ` +
      'Attackers load the email and password pairs from breaches into tools that try them against other services (webmail, Microsoft 365 or Google Workspace, banking, a website\'s admin): ' +
      `this is called credential stuffing, and it succeeds wherever the same password was reused. ${why}`,
    recommendation:
      (recentPasswords.length + olderPasswords.length > 0
        ? `Change the password used on ${names(titles)} wherever it (or anything like it) is still in use, starting with email and admin accounts. `
        : 'Treat unexpected emails to this address that use these details with extra suspicion, and make sure its passwords are used nowhere else. ') + MFA_ADVICE,
  });
}

function domainFinding(domain: string, aliases: [string, string[]][]): Finding {
  const breachNames = new Set(aliases.flatMap(([, names]) => names));
  return finding({
    id: 'breaches.domain',
    title: `${plural(aliases.length, 'address', 'addresses')} at ${domain} appear in known data breaches`,
    severity: 'medium',
    category: BREACHES_CATEGORY,
    evidence: `${listed(aliases, ([alias, list]) => `${maskLocal(alias)}@${domain}: ${list.join(', ')}`)}. Source: ${BREACH_SOURCE} domain search.`,
    description:
      `${BREACH_SOURCE}'s domain search lists every address at ${domain} found in a breach: ${plural(aliases.length, 'address', 'addresses')} across ${plural(breachNames.size, 'breach', 'breaches')}. ` +
      'Each is a starting point for credential stuffing (breached passwords tried against your email and other services) and for targeted phishing.',
    recommendation:
      'Ask each person listed to change any password they reused from the breached services. Enforce multi-factor authentication for everyone in your email tenant (Microsoft 365 or Google Workspace admin settings), ' +
      `and roll out a company password manager. ${MFA_ADVICE}`,
  });
}

/** No HIBP key: say so, with advice, and no numbers (nothing was checked). */
export function notConfiguredOutput(): CheckOutput {
  return {
    findings: [
      finding({
        id: 'breaches.not-configured',
        title: 'Breach check not configured',
        severity: 'info',
        category: BREACHES_CATEGORY,
        description:
          `The breach check is not configured for this scan (no ${BREACH_SOURCE} API key), so no email address was looked up. ` +
          'This is not a clean result: nothing is known either way.',
        recommendation: `You can look up your own addresses at haveibeenpwned.com. Whatever it shows: ${MFA_ADVICE}`,
      }),
    ],
    data: { status: 'not-configured' },
  };
}

/** Findings and card data from the lookups, or the failure when no lookup could be made. */
export function analyzeBreaches(snapshot: BreachesSnapshot, now: Date): BreachesAnalysis {
  const refused = snapshot.accounts.find((a) => a.result.outcome === 'unauthorized');
  if (refused && refused.result.outcome !== 'ok') return { status: 'unauthorized', reason: refused.result.reason };
  const checked = snapshot.accounts.flatMap((a) => (a.result.outcome === 'ok' ? [{ email: a.email, breaches: a.result.value }] : []));
  const unchecked = snapshot.accounts.flatMap((a) => (a.result.outcome === 'ok' ? [] : [{ email: a.email, outcome: a.result.outcome, reason: a.result.reason }]));
  const domain = snapshot.domain;
  const domainOk = domain?.result.outcome === 'ok' ? domain.result.value : undefined;
  if (checked.length === 0 && domainOk === undefined) {
    const failed = unchecked[0] ?? (domain && domain.result.outcome !== 'ok' ? { outcome: domain.result.outcome, reason: domain.result.reason } : undefined);
    if (failed) return { status: failed.outcome, reason: failed.reason };
  }

  const breached = checked.filter((a) => a.breaches.length > 0);
  const aliases = Object.entries(domainOk ?? {})
    .filter(([, names]) => names.length > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const findings: Finding[] = breached.map((a) => accountFinding(a.email, a.breaches, now));
  if (domain && aliases.length > 0) findings.push(domainFinding(domain.domain, aliases));

  const uncheckedNote =
    unchecked.length > 0 ? `; ${plural(unchecked.length, 'address', 'addresses')} could not be checked (${[...new Set(unchecked.map((u) => u.outcome))].join(', ')})` : '';
  if (breached.length === 0 && aliases.length === 0) {
    const parts = [
      checked.length > 0 || unchecked.length > 0
        ? `${plural(checked.length, 'address', 'addresses')} checked, no breaches found${checked.length > 0 ? ` (${checked.map((a) => maskEmail(a.email)).join(', ')})` : ''}${uncheckedNote}`
        : undefined,
      domainOk !== undefined && domain ? `the domain-wide search of ${domain.domain} found no breached address` : undefined,
    ].filter(Boolean);
    if (parts.length === 0) {
      findings.push(
        finding({
          id: 'breaches.no-addresses',
          title: 'No email address to check for breaches',
          severity: 'info',
          category: BREACHES_CATEGORY,
          description: 'No business email address came with this scan, so none was looked up in known data breaches.',
          recommendation: MFA_ADVICE,
        }),
      );
    } else {
      findings.push(
        finding({
          id: 'breaches.none-found',
          title: 'No known breaches for the checked addresses',
          severity: 'info',
          category: BREACHES_CATEGORY,
          evidence: `${parts.join('; ')}. Source: ${BREACH_SOURCE}.`,
          description:
            `${BREACH_SOURCE} knows no breach for these addresses. That is good news, not proof: many breaches are never made public, ` +
            'and a password reused on a breached site is at risk the day that breach surfaces.',
          recommendation: MFA_ADVICE,
        }),
      );
    }
  }

  return {
    status: 'ok',
    output: {
      findings,
      data: {
        status: 'ok',
        source: BREACH_SOURCE,
        checked: checked.length,
        breached: breached.length,
        accounts: checked.map((a) => ({
          email: maskEmail(a.email),
          breaches: [...a.breaches].sort(newestFirst).map((b) => ({ name: b.name, title: b.title, date: b.breachDate, dataClasses: b.dataClasses })),
        })),
        ...(unchecked.length > 0 ? { unchecked: unchecked.map((u) => ({ email: maskEmail(u.email), status: u.outcome, reason: u.reason })) } : {}),
        ...(snapshot.setAside.invalid + snapshot.setAside.overLimit > 0 ? { setAside: snapshot.setAside } : {}),
        ...(domain
          ? {
              domain:
                domain.result.outcome === 'ok'
                  ? {
                      domain: domain.domain,
                      status: 'ok',
                      breachedAddresses: aliases.length,
                      addresses: aliases.map(([alias, names]) => ({ email: `${maskLocal(alias)}@${domain.domain}`, breaches: names })),
                    }
                  : { domain: domain.domain, status: domain.result.outcome, reason: domain.result.reason },
            }
          : {}),
      },
    },
  };
}

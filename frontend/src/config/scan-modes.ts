import { getPlan } from '../lib/catalogue';
import type { NotCheckedCause } from '../lib/contracts';
import { PARTIAL_SCORE_CAP } from '../lib/report-contract';

/**
 * DECISIONS "Scan modes": every text the reports, the unlock and the verify-first checkout show
 * about what a scan checked. The reasons themselves (why each check was not run) and the API's
 * refusals come from the backend (coverage.ts, unlock.contract.ts, payments.contract.ts), so the
 * page, the PDF and the email use the same words.
 */
export const scanModeContent = {
  notChecked: 'Not checked',

  mode: {
    passive: {
      heading: 'Passive scan — partial report',
      text: 'This scan did only what any visitor’s browser or a mail server does: it loaded the site’s pages, shook hands over TLS and read its DNS and email records. Everything that needs proof that you control the site was not checked, so this report is partial.',
    },
    /** The requester had proved control, but the site had its hour's full scans already. */
    limited: {
      heading: 'Passive scan — partial report',
      text: 'This site had as many full scans this hour as it may have, so this one ran passive: the checks below were not run. Run the full scan again later, below.',
    },
    activePartial: {
      heading: 'Full scan — partial report',
      text: 'The full scan ran, but some checks did not finish, so this report is partial.',
    },
    active: {
      heading: 'Full scan',
      text: 'Every check ran, including the port scan, exposed files and WordPress checks.',
    },
  },
  scanning: { passive: 'Passive scan', active: 'Full scan' },

  grade: { partial: 'partial' },
  scoreCap: `A partial report’s score stops at ${PARTIAL_SCORE_CAP}: it never gets an A, so it cannot look better because less was checked.`,
  riskPartial: 'Based only on what this partial scan checked.',
  noVulnerabilitiesPartial: 'No vulnerabilities detected in what this scan checked. See “Not checked” for what it did not.',
  nothingToFixPartial: 'Nothing found needs fixing in what this scan checked.',

  notCheckedList: {
    heading: 'Not checked',
    intro: 'These were not checked in this scan. A check that did not run counts as not checked, never as passed.',
  },
  /** Short words for why, beside a counter or a card. */
  cause: {
    passive: 'needs the full scan',
    limit: 'full-scan limit reached',
    error: 'ended in an error',
    timeout: 'did not finish in time',
    blocked: 'the site blocked the scanner',
    rate_limited: 'the site limited our requests',
  } satisfies Record<NotCheckedCause, string>,
  ports: {
    notRun: 'The port scan was not run, so which services answer from the internet is not known.',
  },
  subdomains: {
    activeNotChecked: 'Which subdomains answer on the web was not checked in this scan.',
  },

  unlock: {
    heading: (domain: string) => `Prove you control ${domain} to unlock the full scan`,
    intro: 'The full scan does what only the site’s owner should ask for. It adds:',
    adds: [
      'A port scan: which services answer from the internet, and what they are',
      'Exposed files and folders: .git, .env, backups, database dumps, server status pages',
      'WordPress checks, including whether its user names can be listed',
      'A zone transfer attempt (AXFR) on the domain’s name servers',
      'Subdomain probing: names guessed from a wordlist, and which subdomains answer on the web',
    ],
    account:
      `Unlocking needs a free account: a verified domain belongs to an account, and the account is where you prove control, with a DNS TXT record or a file on your site. The account costs nothing; the full scan counts as one scan of your plan, as a Quick Scan does (a free account's trial includes ${getPlan('trial').scansLimit} scans).`,
    leadAccount: 'Asked for this report with the form? Your free account was created then: choose its password with the link we emailed you, or use "Forgot password".',
    signIn: 'Sign in to unlock',
    signUp: 'Create a free account',
    verify: (domain: string) => `Verify ${domain}`,
    verified: (domain: string) => `${domain} is verified on your account: the full scan can run now.`,
    run: 'Run the full scan',
    starting: 'Starting the full scan...',
    failed: 'Could not start the full scan. Please try again.',
    toDashboard: 'Go to your dashboard',
    viewReport: 'View the report',
  },

  /** Issue 29 item 6: each scan is its own report; a partial one and the full scan that replaced it link to each other. */
  supersede: {
    replacedBy: 'A full scan of this site replaced this partial report — view it',
    replaces: (date: string) => `Replaces the partial report of ${date}`,
  },

  /** Settings → Domains, opened to verify a domain for something (`?add=…&unlock=…` or `&offer=…`). */
  verifyFor: {
    unlockHeading: (domain: string) => `Unlock the full scan of ${domain}`,
    offerHeading: (domain: string) => `Verify ${domain} for your paid audit`,
    offerText: 'A paid audit’s deep scan probes the site, which needs proof that you control it. No payment is taken until then.',
    steps: {
      add: (domain: string) => `Add ${domain} below: it is filled in.`,
      prove: 'Publish the DNS TXT record or the file shown under it, then press “Check verification”. A new DNS record can take a few minutes to be seen.',
      unlock: 'Run the full scan: the report updates as each check finishes.',
      offer: 'Go back to the report and choose the paid audit again.',
    },
    done: 'done',
    offerVerified: (domain: string) => `${domain} is verified on your account: its paid audit can run.`,
    backToOffer: 'Back to the paid audit offer',
  },

  checkout: {
    verifyFirstHeading: (domain: string) => `Verify ${domain} first`,
    verifyFirst: (domain: string) => `Verify ${domain}`,
  },
} as const;

/**
 * DECISIONS "Scan modes": unlocking a passive report's full (active) scan. Shared by the handler and
 * the results page. Unlocking needs a (free) account: verified domains belong to an account, and
 * the account is where the verification is done and kept.
 */
export const unlockMessages = {
  started: 'Full scan started: the report updates as each check finishes.',
  notYours: 'This report belongs to another account. Run a Quick Scan of your verified domain from your dashboard instead.',
  alreadyActive: 'This report already ran the full scan.',
  superseded: 'A full scan of this site already replaced this partial report: open it from the link on this report.',
  running: 'This report is being scanned right now. Try again when it has finished.',
  notVerified: (domain: string) => `Verify that you control ${domain} first (Dashboard → Domains: a DNS TXT record or a file on the site), then unlock the full scan.`,
} as const;

export interface UnlockResponse {
  auditId: string;
  status: 'queued';
  mode: 'active';
  message: string;
}

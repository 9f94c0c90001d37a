import * as z from 'zod';

/**
 * DECISIONS "Scanner identity": the public scanner routes' requests and answers, shared with the
 * frontend's /scanner page (no Node imports here).
 */

const DOMAIN_MESSAGE = 'Please enter a domain, for example example.com.';

/** `POST /api/scanner/opt-outs`: the domain to opt out (read further by parseOptOutDomain). */
export const optOutRequestSchema = z.object({
  domain: z.string({ error: DOMAIN_MESSAGE }).trim().min(1, DOMAIN_MESSAGE).max(253, DOMAIN_MESSAGE),
});

export const OPT_OUT_TOKEN_MESSAGE = 'The token is the 22 characters the opt-out request gave you.';

/** `POST /api/scanner/opt-outs/{domain}/confirm`: the token of the request whose proof is now published. */
export const optOutConfirmSchema = z.object({
  token: z.string({ error: OPT_OUT_TOKEN_MESSAGE }).trim().regex(/^[A-Za-z0-9_-]{22}$/, OPT_OUT_TOKEN_MESSAGE),
});

export type OptOutRequestInput = z.input<typeof optOutRequestSchema>;
export type OptOutConfirmInput = z.input<typeof optOutConfirmSchema>;

/** `GET /api/scanner`: what the scanner is, how it behaves, where it scans from and where to complain. */
export interface ScannerInfoView {
  productName: string;
  /** The exact user agent of its HTTP requests. */
  userAgent: string;
  /** The addresses it connects from; null when not fixed (AWS addresses that change). */
  egressAddresses: string[] | null;
  abuseEmail: string;
  /** Per site, however many checks run at once; and the full (active) scans one site gets an hour from the whole product. */
  politeness: { maxInFlightPerSite: number; maxRequestsPerSecondPerSite: number; activeScansPerSitePerHour: number };
  /** Where an owner's proof goes (`{domain}` stands for the registrable domain). */
  optOut: { dnsRecordName: string; dnsRecordValuePrefix: string; filePath: string; requestValidDays: number };
}

/** `POST /api/scanner/opt-outs` (201): the token and the two ways to publish it. */
export interface OptOutRequestView {
  /** The registrable domain the opt-out will cover (with every subdomain). */
  domain: string;
  token: string;
  expiresAt: string;
  dns: { type: 'TXT'; name: string; value: string };
  file: { url: string; content: string };
}

/** `POST /api/scanner/opt-outs/{domain}/confirm` (200). */
export interface OptOutConfirmView {
  domain: string;
  optedOut: true;
  optedOutAt: string;
  method: 'dns' | 'file';
}

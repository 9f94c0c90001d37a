// No imports: the lead form's chunk reads these texts without loading the contracts (zod).
/**
 * DECISIONS "Scan modes" [attacker]: a lead whose address is at the site's domain proves it with
 * the code mailed to it; until then its report is passive. Shared by the API and the results page.
 */
export const addressProofMessages = {
  /** The lead form's success heading when the address is still to be proven (instead of the account texts). */
  leadCompleted: (email: string) => `Passive scan completed. We emailed a code to ${email}: type it on the report to run the full scan.`,
  prompt: (email: string | undefined) => `We emailed a code to ${email ?? 'your address'}: type it to run the full scan`,
  started: 'Address confirmed: the full scan has started, and the report updates as each check finishes.',
  notPending: 'This report is not waiting for an address to be confirmed.',
  running: 'This report is being scanned right now. Type the code once the report is ready.',
} as const;

/** SPEC §3 "Session storage keys": the last submitted site and audit, read by the checkout flow. */
export const SESSION_KEYS = { submittedWebUrl: 'submittedWebUrl', currentAuditId: 'currentAuditId' } as const;

export function rememberSubmission(webUrl: string, auditId: string): void {
  try {
    sessionStorage.setItem(SESSION_KEYS.submittedWebUrl, webUrl);
    sessionStorage.setItem(SESSION_KEYS.currentAuditId, auditId);
  } catch {
    // Storage can be disabled (private modes, policies); the journey works without it.
  }
}

/** SPEC §3 "Session storage keys": the last submitted site and audit, read by the checkout flow. */
export const SESSION_KEYS = { submittedWebUrl: 'submittedWebUrl', currentAuditId: 'currentAuditId' } as const;

/** Where the code of a same-domain lead's address went, by audit: the results page names it (the public report never does). */
const addressProofKey = (auditId: string) => `confirmAddress:${auditId}`;

export function rememberAddressProof(auditId: string, email: string): void {
  try {
    sessionStorage.setItem(addressProofKey(auditId), email);
  } catch {
    // Without storage the page says "your address" instead.
  }
}

export function rememberedAddressProof(auditId: string): string | undefined {
  try {
    return sessionStorage.getItem(addressProofKey(auditId)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberSubmission(webUrl: string, auditId: string): void {
  try {
    sessionStorage.setItem(SESSION_KEYS.submittedWebUrl, webUrl);
    sessionStorage.setItem(SESSION_KEYS.currentAuditId, auditId);
  } catch {
    // Storage can be disabled (private modes, policies); the journey works without it.
  }
}

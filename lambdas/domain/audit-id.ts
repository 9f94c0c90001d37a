/**
 * An audit id's shape without zod: the results page checks the id in its address before anything
 * else loads (issue 29 item 15). The same pattern as `auditIdSchema` (audit.ts); a unit test holds them together.
 */
export const AUDIT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isAuditId(id: string): boolean {
  return AUDIT_ID_PATTERN.test(id);
}

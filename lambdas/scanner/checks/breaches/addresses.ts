/**
 * The addresses a breach check may look up, and how they appear in reports: partly masked, so a
 * shared or public report (and any log line) never carries a full email address.
 */

/** At most this many addresses are looked up per scan (each one is a paid, rate-limited request). */
export const MAX_ADDRESSES = 5;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Lower-cased, trimmed, de-duplicated, well-formed addresses, in the order given; the rest set aside. */
export function addressesToCheck(emails: readonly string[], limit = MAX_ADDRESSES): { emails: string[]; invalid: number; overLimit: number } {
  const seen = new Set<string>();
  let invalid = 0;
  for (const raw of emails) {
    const email = raw.trim().toLowerCase();
    if (!EMAIL.test(email)) {
      invalid += 1;
      continue;
    }
    seen.add(email);
  }
  const all = [...seen];
  return { emails: all.slice(0, limit), invalid, overLimit: Math.max(0, all.length - limit) };
}

/** `owner@example.com` → `o***r@example.com`; local parts of 1–2 characters keep only their first. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return maskLocal(email);
  return `${maskLocal(email.slice(0, at))}@${email.slice(at + 1)}`;
}

/** The part before `@`, masked the same way (domain searches answer aliases). */
export function maskLocal(local: string): string {
  const chars = [...local];
  if (chars.length === 0) return '***';
  if (chars.length <= 2) return `${chars[0]}***`;
  return `${chars[0]}***${chars.at(-1)}`;
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The alert emails' unsubscribe link (issue 8 "unsubscribe link honoured"): `v1.{user}.{mac}`, the
 * user's id (base64url) and an HMAC-SHA256 of it under a key only the product holds. Anyone with
 * the link can unsubscribe that one account, nobody can forge a link for another, and the link
 * never expires (the law wants it to keep working; turning alerts off is all it can do).
 */

const PURPOSE = 'alerts-unsubscribe:v1:';
const TOKEN = /^v1\.([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/;

function mac(key: Uint8Array, userId: string): Buffer {
  return createHmac('sha256', key).update(PURPOSE + userId).digest();
}

export function signUnsubscribeToken(key: Uint8Array, userId: string): string {
  return `v1.${Buffer.from(userId, 'utf8').toString('base64url')}.${mac(key, userId).toString('base64url')}`;
}

/** The user the token was signed for; undefined when it is malformed or its signature does not match. */
export function verifyUnsubscribeToken(key: Uint8Array, token: unknown): string | undefined {
  const match = typeof token === 'string' ? TOKEN.exec(token) : null;
  if (!match) return undefined;
  const userId = Buffer.from(match[1]!, 'base64url').toString('utf8');
  const given = Buffer.from(match[2]!, 'base64url');
  const expected = mac(key, userId);
  return userId !== '' && given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined;
}

/**
 * Issue 29 item 4: an account the lead form creates gets a one-time link to choose its password,
 * never a password in an email. The link carries a random token (in the address's fragment, so it
 * reaches neither our logs nor a Referer); only its SHA-256 is stored, with the user it is for and
 * when it stops working. It works once: the store hands it out with a conditional delete.
 *
 * After it expires (or was used), the address still signs in through "Forgot password": the account
 * is created with a password nobody knows, confirmed, so Cognito's own reset reaches it.
 */
import { createHash, randomBytes } from 'node:crypto';

/** How long a set-password link works. */
export const SET_PASSWORD_LINK_HOURS = 72;

/** Per source address per hour: attempts to use a link (each a table read and perhaps a Cognito call). */
export const SET_PASSWORD_ATTEMPTS_PER_IP = 20;

/** The page that reads the token from its address's fragment. */
export const SET_PASSWORD_PATH = '/auth/set-password';

export interface SetPasswordLinkRecord {
  /** SHA-256 of the token, base64url: the only form it is stored in. */
  tokenHash: string;
  userId: string;
  email: string;
  createdAt: string;
  /** Epoch seconds: the link stops working then (and the item's TTL). */
  expiresAt: number;
}

export interface SetPasswordLinks {
  put(link: SetPasswordLinkRecord): Promise<void>;
  /** The link, taken out of the store (so a second use finds nothing); undefined when unknown or used. */
  take(tokenHash: string): Promise<SetPasswordLinkRecord | undefined>;
}

/** A new token: 32 random bytes, base64url (43 characters). */
export function newSetPasswordToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSetPasswordToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** The page's address with the token: `{siteUrl}/auth/set-password#token=…`. */
export function setPasswordUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${SET_PASSWORD_PATH}#token=${token}`;
}

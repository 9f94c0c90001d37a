/**
 * DKIM presence, as far as it can be seen from outside: selectors are chosen by the sender and
 * not listed anywhere, so the check uses internet.nl's trick (`_domainkey.<domain>` answering
 * NOERROR means names exist below it: RFC 8553 and RFC 2308 empty non-terminals) plus the
 * selectors big providers use by default. Not finding one is information, never an issue.
 */
import { createPublicKey } from 'node:crypto';
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import selectorData from '../../data/dkim-selectors.json' with { type: 'json' };

/** Selectors of common providers and defaults (cPanel, Google Workspace, Microsoft 365, Mailchimp, Fastmail, HubSpot …). */
export const COMMON_DKIM_SELECTORS = [
  'default', 'google', 'selector1', 'selector2', 'k1', 'k2', 'mail', 'dkim', 's1', 's2', 'smtp', 'mandrill', 'everlytic', 'mxvault',
  'sig1', 'mailjet', 'zoho', 'protonmail', 'protonmail2', 'protonmail3', 'key1', 'email', 'fm1', 'fm2', 'fm3', 'hs1', 'hs2',
] as const;

/**
 * Every selector the probe tries: the providers' defaults first, then the knowledge base's list
 * (lambdas/scanner/data/dkim-selectors.json, built from the shared short list by
 * bin/build-dkim-selectors.ts), each once.
 */
export const DKIM_SELECTORS: readonly string[] = [...new Set<string>([...COMMON_DKIM_SELECTORS, ...selectorData.selectors])];

export interface DkimKey {
  selector: string;
  /** Key type (k=), rsa by default. */
  keyType: string;
  /** Public key size in bits, when the key could be read. */
  bits?: number;
  /** An empty p= revokes the key (RFC 6376 §3.6.1). */
  revoked: boolean;
  /** t=y: the signer is testing; receivers treat signatures as unsigned. */
  testing: boolean;
}

export interface DkimObservation {
  domain: string;
  /** The rcode of `_domainkey.<domain>`: NOERROR means there are keys below it. */
  domainkey: string;
  selectorsTried: string[];
  selectorsFound: DkimKey[];
}

/** Reads one DKIM key record (`v=DKIM1; k=rsa; p=MIIB…`). */
export function parseDkimKey(selector: string, record: string): DkimKey | undefined {
  const tags = Object.fromEntries(
    record
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part.includes('='))
      .map((part) => [part.slice(0, part.indexOf('=')).trim().toLowerCase(), part.slice(part.indexOf('=') + 1).replace(/\s+/g, '')]),
  ) as Record<string, string | undefined>;
  if (tags.p === undefined) return undefined;
  const keyType = (tags.k ?? 'rsa').toLowerCase();
  const key: DkimKey = { selector, keyType, revoked: tags.p === '', testing: (tags.t ?? '').split(':').includes('y') };
  if (!key.revoked && keyType === 'rsa') {
    try {
      const details = createPublicKey({ key: Buffer.from(tags.p, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyDetails;
      if (details?.modulusLength) key.bits = details.modulusLength;
    } catch {
      // an unreadable key is reported without a size
    }
  }
  if (keyType === 'ed25519') key.bits = 256;
  return key;
}

const finding = findingsFor('email');
const category = 'Email Security';

/**
 * Analyze DKIM. "Not found" is info: a sender's selectors cannot be listed, so absence from the
 * outside is not proof (scanners that call it an issue are a known source of false positives). It
 * is skipped for domains that say they send no mail. An RSA key under 1024 bits is medium:
 * receivers must not accept it (RFC 8301), so the domain's mail is effectively unsigned.
 */
export function analyzeDkim(observation: DkimObservation, context: { sendsNoMail: boolean }): Finding[] {
  const { domain } = observation;
  const live = observation.selectorsFound.filter((k) => !k.revoked);
  const findings: Finding[] = [];
  if (live.length === 0 && observation.domainkey !== 'NOERROR' && !context.sendsNoMail) {
    findings.push(
      finding({
        id: 'email.dkim.not-found',
        title: 'No DKIM key found',
        severity: 'info',
        category,
        evidence: `_domainkey.${domain}: ${observation.domainkey}; none of the ${observation.selectorsTried.length} common selectors tried (${observation.selectorsTried.slice(0, 8).join(', ')}${observation.selectorsTried.length > 8 ? ', …' : ''}) has a key`,
        description: 'DKIM signs your outgoing mail so receivers can tell it was not forged or altered; DMARC relies on it. Selectors are private to the sender, so your mail may still be signed with a selector this scan cannot guess.',
        recommendation: "Check that your mail provider signs with DKIM for your domain and that its public key is published in DNS (your provider's admin console shows the record).",
      }),
    );
  }
  const weak = live.filter((k) => k.keyType === 'rsa' && k.bits !== undefined && k.bits < 1024);
  if (weak.length > 0) {
    findings.push(
      finding({
        id: 'email.dkim.weak-key',
        title: 'DKIM key shorter than 1024 bits',
        severity: 'medium',
        category,
        evidence: weak.map((k) => `${k.selector}._domainkey.${domain}: RSA ${k.bits} bits`).join('; '),
        description: 'Receivers must ignore signatures made with RSA keys under 1024 bits (RFC 8301), and such keys can be factored: your mail is effectively unsigned.',
        recommendation: 'Generate a 2048-bit key with your mail provider, publish it under a new selector, then remove the old one.',
      }),
    );
  }
  return findings;
}

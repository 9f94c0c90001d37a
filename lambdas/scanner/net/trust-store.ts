/**
 * TLS contexts that trust a given certificate set (Node's root store plus
 * ScanSettings.extraCaCertificates, see createNet). Loading some 150 certificates into a context
 * costs about 40 ms, far too much for each of the TLS check's handshakes, so each context is built
 * once per certificate set and TLS settings, and shared by every connection that needs it.
 */
import { createHash } from 'node:crypto';
import { createSecureContext, type SecureContext, type SecureVersion } from 'node:tls';

/** The settings that live in the context: with `secureContext` given, tls.connect reads none of them from its options. */
export interface ContextSettings {
  ciphers?: string;
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
}

/** Bounded: one context per cipher string and version pair the TLS check asks for. */
const MAX_CONTEXTS = 64;
const contexts = new Map<string, SecureContext>();
const fingerprints = new WeakMap<readonly string[], string>();

function fingerprint(ca: readonly string[]): string {
  let value = fingerprints.get(ca);
  if (value === undefined) {
    value = createHash('sha256').update(ca.join('\n')).digest('hex');
    fingerprints.set(ca, value);
  }
  return value;
}

/** A context trusting exactly `ca`, with these TLS settings; the same object for the same certificates and settings. */
export function trustingContext(ca: readonly string[], settings: ContextSettings = {}): SecureContext {
  const key = `${fingerprint(ca)} ${settings.ciphers ?? ''} ${settings.minVersion ?? ''} ${settings.maxVersion ?? ''}`;
  let context = contexts.get(key);
  if (!context) {
    if (contexts.size >= MAX_CONTEXTS) contexts.delete(contexts.keys().next().value!);
    context = createSecureContext({ ca: [...ca], ...settings });
    contexts.set(key, context);
  }
  return context;
}

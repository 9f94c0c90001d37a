/**
 * The API's simple domain checks (lambdas/domain/domains.ts parseDomainInput), mirrored so the
 * obvious mistakes are answered before a round trip. The API stays the judge: anything that passes
 * here may still come back 400 with its own message, which the form shows.
 */
export const domainInputMessages = {
  empty: 'Please enter a domain, for example example.com.',
  ip: 'Please enter a domain name, not an IP address.',
  singleLabel: 'Please enter a full domain name such as example.com.',
  invalid: 'Please enter a valid domain, for example example.com.',
} as const;

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The problem with what was typed, or undefined when it is worth sending. */
export function domainInputProblem(input: string): string | undefined {
  const text = input.trim();
  if (text === '') return domainInputMessages.empty;
  const bare = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0] ?? '';
  const host = bare.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  if (IPV4.test(host) || host.includes(':')) return domainInputMessages.ip;
  if (host === '') return domainInputMessages.invalid;
  if (!host.includes('.')) return domainInputMessages.singleLabel;
  if (/\s/.test(host) || host.startsWith('.') || host.endsWith('..') || host.includes('..')) return domainInputMessages.invalid;
  return undefined;
}

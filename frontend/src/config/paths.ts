/**
 * Every route of the site (SPEC §2), declared once: the router mounts `path`, links call `getHref`.
 * Routes whose pages arrive in later issues are listed already so links and redirects can name them.
 */
const withQuery = (path: string, query: Record<string, string | undefined>): string => {
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return search ? `${path}?${search}` : path;
};

const segment = (value: string): string => encodeURIComponent(value);

export const paths = {
  home: { path: '/', getHref: () => '/' },
  auth: {
    root: { path: '/auth', getHref: () => '/auth' },
    login: { path: '/auth/login', getHref: (returnUrl?: string) => withQuery('/auth/login', { returnUrl }) },
    signup: { path: '/auth/signup', getHref: (returnUrl?: string) => withQuery('/auth/signup', { returnUrl }) },
    resetPassword: { path: '/auth/reset-password', getHref: () => '/auth/reset-password' },
    /** The emailed one-time link of a lead-created account: the token is in the fragment (never sent to a server by the browser). */
    setPassword: { path: '/auth/set-password', getHref: () => '/auth/set-password' },
  },
  dashboard: {
    root: { path: '/dashboard', getHref: () => '/dashboard' },
    section: { path: '/dashboard/:section', getHref: (section: string) => `/dashboard/${segment(section)}` },
    audit: { path: '/dashboard/audits/:auditId', getHref: (auditId: string) => `/dashboard/audits/${segment(auditId)}` },
    /**
     * Settings → Domains with a domain to verify filled in, and what the verification is for: `unlock`
     * a passive report's full scan, or go back to a report's paid audit `offer` (DECISIONS "Scan modes").
     */
    verifyDomain: {
      getHref: (domain: string, purpose: { unlock?: string; offer?: string } = {}) =>
        withQuery('/dashboard/settings', { tab: 'domains', add: domain, unlock: purpose.unlock, offer: purpose.offer }),
    },
  },
  results: {
    path: '/results/:auditId',
    /** Without an id: answered with 'Invalid audit ID' (SPEC §5), not a 404. */
    missingIdPath: '/results',
    getHref: (auditId: string) => `/results/${segment(auditId)}`,
  },
  success: { path: '/success', getHref: (sessionId?: string) => withQuery('/success', { session_id: sessionId }) },
  paymentSuccess: {
    path: '/payment-success',
    getHref: (sessionId?: string, auditId?: string) =>
      withQuery('/payment-success', { session_id: sessionId, audit_id: auditId }),
  },
  share: {
    path: '/share/:shareToken',
    /** Without a token: answered with 'Invalid share link' (SPEC §5), not a 404. */
    missingTokenPath: '/share',
    getHref: (shareToken: string) => `/share/${segment(shareToken)}`,
  },
  /** DECISIONS "/reports": /reports/{id} redirects to the results page; /reports/{id}.pdf is the PDF (served by the API). */
  reports: {
    path: '/reports/:auditId',
    getHref: (auditId: string) => `/reports/${segment(auditId)}`,
    pdfHref: (auditId: string) => `/reports/${segment(auditId)}.pdf`,
  },
  /** DECISIONS "Badge and verify": the public page a badge links to. */
  verify: { path: '/verify/:domain', getHref: (domain: string) => `/verify/${segment(domain)}` },
  /** Teams: the link an invitation email carries (`?token=inv_…`). */
  acceptInvitation: { path: '/invitations/accept', getHref: (token?: string) => withQuery('/invitations/accept', { token }) },
  wazuhTest: { path: '/wazuh-test', getHref: () => '/wazuh-test' },
  /** DECISIONS "Scanner identity": what the scanner does, where it scans from, how to opt out (its user agent links here). */
  scanner: { path: '/scanner', getHref: () => '/scanner' },
  terms: { path: '/terms', getHref: () => '/terms' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
} as const;

/**
 * TLS issues → findings: one finding per problem, however many ports show it (the evidence names
 * each port and its measured value). The words a site owner reads live here, in one table.
 */
import type { Finding, Severity } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { tlsIssueIds, type TlsIssue, type TlsIssueId } from './issues.js';

const finding = findingsFor('tls');
export const TLS_CATEGORY = 'SSL/TLS';

interface Wording {
  title: string;
  description: string;
  recommendation: string;
}

const MOZILLA = 'Mozilla\'s "intermediate" configuration (ssl-config.mozilla.org) gives ready-made settings for every common server.';

const wording: Record<TlsIssueId, Wording> = {
  'tls.none': {
    title: 'The website does not offer HTTPS',
    description:
      'The HTTPS port does not answer with TLS while the site answers over plain HTTP. Everything visitors send, passwords and card details included, crosses the internet readable by anyone on the path, and browsers label the site "Not secure".',
    recommendation:
      "Turn on HTTPS at your host or CDN: most offer a free certificate (Let's Encrypt) in one click. Then redirect every http:// address to https://.",
  },
  'tls.protocol.tls10': {
    title: 'TLS 1.0 is still accepted',
    description:
      'TLS 1.0 (1999) is retired (RFC 8996) and not allowed for card payments under PCI DSS. It relies on weak constructions (predictable CBC IVs, as exploited by BEAST; MD5/SHA-1). Current browsers no longer use it, so it only serves outdated clients and attackers who force a downgrade.',
    recommendation: `Set the minimum TLS version to 1.2 in your server or CDN settings (nginx: ssl_protocols TLSv1.2 TLSv1.3; Apache: SSLProtocol -all +TLSv1.2 +TLSv1.3). ${MOZILLA}`,
  },
  'tls.protocol.tls11': {
    title: 'TLS 1.1 is still accepted',
    description:
      'TLS 1.1 is retired (RFC 8996) and browsers have dropped it. It fixed TLS 1.0\'s CBC flaw but still has no modern (AEAD) ciphers and relies on MD5/SHA-1 internally.',
    recommendation: `Set the minimum TLS version to 1.2 in your server or CDN settings. ${MOZILLA}`,
  },
  'tls.protocol.no-tls12': {
    title: 'TLS 1.2 is not offered',
    description:
      "The server's newest protocol is older than TLS 1.2, so no visitor gets modern encryption, and current browsers refuse the connection or warn.",
    recommendation: 'Upgrade the web server (and its OpenSSL), or put the site behind a CDN, and enable TLS 1.2 and TLS 1.3.',
  },
  'tls.protocol.no-tls13': {
    title: 'TLS 1.3 is not offered',
    description:
      'TLS 1.3 connects faster and removes every legacy option. TLS 1.2 with good ciphers is still secure, so this is an improvement to plan, not a flaw.',
    recommendation: 'Enable TLS 1.3 when your server software allows it (OpenSSL 1.1.1 or later; nginx: ssl_protocols TLSv1.2 TLSv1.3;).',
  },
  'tls.cipher.anonymous': {
    title: 'The server accepts unauthenticated (anonymous) encryption',
    description:
      'Anonymous cipher suites skip the certificate entirely, so an attacker on the path can pose as the site and read or change everything, even though the connection looks encrypted.',
    recommendation: `Remove anonymous suites (add !aNULL to the cipher list). ${MOZILLA}`,
  },
  'tls.cipher.weak': {
    title: 'Breakable ciphers are accepted',
    description: 'Export-grade, DES or NULL suites (under 112 bits) can be broken with ordinary computing power; an attacker who forces their use can read the traffic.',
    recommendation: `Remove every suite under 128 bits (add !EXPORT:!DES:!3DES:!NULL to the cipher list). ${MOZILLA}`,
  },
  'tls.cipher.no-forward-secrecy': {
    title: 'Connections lack forward secrecy',
    description:
      "Without ECDHE or DHE key exchange, anyone who records traffic today and later obtains the server's private key (a breach, a stolen backup) can decrypt all of it.",
    recommendation: `Enable ECDHE cipher suites and prefer them. ${MOZILLA}`,
  },
  'tls.cipher.no-aead': {
    title: 'Only older CBC-mode ciphers are available',
    description:
      'No AES-GCM, ChaCha20-Poly1305 or CCM suite was accepted. CBC-mode suites have a long record of padding-oracle attacks (Lucky13, POODLE for TLS).',
    recommendation: `Enable AES-GCM and ChaCha20-Poly1305 suites. ${MOZILLA}`,
  },
  'tls.cipher.weak-dh': {
    title: 'Weak Diffie-Hellman parameters (Logjam)',
    description:
      'DHE key exchange uses a group smaller than 2048 bits. Such groups are within reach of well-funded attackers, who can then decrypt or tamper with connections (Logjam).',
    recommendation: 'Configure a 2048-bit or larger DH group (ffdhe2048 from RFC 7919), or disable DHE suites and keep ECDHE.',
  },
  'tls.cert.expired': {
    title: 'The certificate has expired',
    description: 'Browsers show a full-page warning and most visitors leave; apps and other automated clients refuse to connect.',
    recommendation: 'Renew the certificate now and install it with its intermediate chain, then turn on automatic renewal (Let\'s Encrypt clients and most hosts do this).',
  },
  'tls.cert.not-yet-valid': {
    title: 'The certificate is not valid yet',
    description: 'Its start date is in the future, so browsers reject it. Usually the wrong certificate was installed or the server clock is wrong.',
    recommendation: "Install the current certificate and check the server's clock (NTP).",
  },
  'tls.cert.expiring-soon': {
    title: 'The certificate expires soon',
    description: 'Once it expires, browsers will block visitors with a security warning.',
    recommendation: 'Renew it now and set up automatic renewal so it does not happen again.',
  },
  'tls.cert.self-signed': {
    title: 'The certificate is self-signed',
    description:
      'It was not issued by a certificate authority that browsers trust, so visitors get a security warning and cannot tell the real site from an impostor.',
    recommendation: "Replace it with a certificate from a trusted authority. Let's Encrypt is free and most hosting panels install it in one click.",
  },
  'tls.cert.untrusted': {
    title: 'The certificate is not trusted',
    description:
      'The certificate cannot be traced to an authority browsers trust, so many visitors get a security warning. The usual cause is a server that does not send the intermediate certificate.',
    recommendation: "Install the full chain your certificate authority provides (the \"fullchain\" file), or reissue the certificate from a trusted authority.",
  },
  'tls.cert.hostname-mismatch': {
    title: 'The certificate is for a different name',
    description: 'The certificate does not cover the address visitors use, so browsers show a security warning.',
    recommendation: 'Issue a certificate that lists this exact name (and the www. name if you use it) as Subject Alternative Names.',
  },
  'tls.cert.weak-key': {
    title: "The certificate's key is too small",
    description: 'Keys smaller than RSA 2048 or EC 256 bits are within reach of attackers and are refused by certificate authorities and modern clients.',
    recommendation: 'Generate a new RSA 2048-bit (or ECDSA P-256) key and reissue the certificate with it.',
  },
  'tls.cert.weak-signature': {
    title: 'The certificate uses an obsolete signature (SHA-1 or MD5)',
    description: 'SHA-1 and MD5 signatures can be forged with collision attacks, and browsers reject certificates that rely on them.',
    recommendation: 'Reissue the certificate with a SHA-256 signature; every current certificate authority does so by default.',
  },
  'tls.cert.no-sct': {
    title: 'The certificate carries no Certificate Transparency proof',
    description:
      'Publicly trusted certificates are logged in Certificate Transparency logs, and Chrome and Safari require proof of it (Signed Certificate Timestamps). This certificate embeds none: unless the server sends them another way (a TLS extension or the stapled OCSP response), those browsers refuse it, and a certificate nobody logged cannot be spotted by the domain owner\'s CT monitoring.',
    recommendation: 'Reissue the certificate from your certificate authority (every public CA embeds SCTs by default today), and watch crt.sh or a CT monitor for certificates issued for your domain.',
  },
  'tls.ocsp.not-stapled': {
    title: 'OCSP stapling is not enabled',
    description:
      "The certificate names an OCSP responder, but the server does not staple its answer to the handshake. Each visitor's browser must then ask the certificate authority itself (slower, and it tells the CA which sites the visitor opens), or skip the revocation check.",
    recommendation: 'Turn on OCSP stapling (nginx: ssl_stapling on; ssl_stapling_verify on; with a resolver; Apache: SSLUseStapling On with an SSLStaplingCache). Most CDNs staple by default.',
  },
  'tls.caa.issuer-not-allowed': {
    title: "The domain's CAA record does not allow the authority that issued the certificate",
    description:
      'CAA records list the certificate authorities allowed to issue for the domain. The certificate the site serves comes from an authority the records leave out: the records were changed after issuance, or the certificate was mis-issued. Either way the next renewal from that authority will be refused and the site will go down when this certificate expires.',
    recommendation: 'Add the authority that issues your certificates to the CAA record (for example `example.com. CAA 0 issue "letsencrypt.org"`), or move the certificate to an authority the record allows; if you did not order this certificate, contact the authority to have it revoked.',
  },
  'tls.hsts.missing': {
    title: 'HSTS is not enabled',
    description:
      'Without a Strict-Transport-Security header, a visitor who types the address or follows an http:// link can be intercepted before reaching HTTPS (SSL stripping, for example on public Wi-Fi).',
    recommendation:
      'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains" on HTTPS responses, once every subdomain works over HTTPS (add includeSubDomains last if unsure).',
  },
  'tls.hsts.short-max-age': {
    title: 'HSTS lasts too short a time',
    description: 'Browsers forget HSTS after max-age seconds; under six months leaves returning visitors unprotected in between.',
    recommendation: 'Raise max-age to at least 15768000 (six months); 31536000 (one year) is the usual value.',
  },
  'tls.redirect.no-https-redirect': {
    title: 'Plain HTTP does not redirect to HTTPS',
    description: 'Visitors who type the address without https:// stay on an unencrypted connection that anyone on the path can read and change.',
    recommendation: 'Redirect every http:// request to the same https:// address with a 301 redirect (a single setting at most hosts and CDNs).',
  },
};

const rank: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** Merges issues into findings: one per id, worst severity, every port's evidence, in catalogue order. */
export function tlsFindings(issues: readonly TlsIssue[]): Finding[] {
  return tlsIssueIds.flatMap((id) => {
    const group = issues.filter((issue) => issue.id === id);
    if (group.length === 0) return [];
    const severity = group.reduce<Severity>((worst, issue) => (rank[issue.severity] > rank[worst] ? issue.severity : worst), 'info');
    const evidence = group.map((issue) => (issue.port === undefined ? issue.evidence : `port ${issue.port}: ${issue.evidence}`)).join('; ');
    const cves = [...new Set(group.flatMap((issue) => issue.cves ?? []))];
    return [finding({ id, severity, category: TLS_CATEGORY, evidence, ...wording[id], ...(cves.length > 0 ? { cves } : {}) })];
  });
}

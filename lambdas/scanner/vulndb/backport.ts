/**
 * Distribution packages: Debian, Ubuntu, Red Hat and others fix vulnerabilities by backporting patches
 * while keeping the upstream version number, so "OpenSSH_9.2p1 Debian-2+deb12u10" may be fully patched.
 * A banner that shows such a package makes a version match a possibility, not a certainty.
 */

interface DistributionPattern {
  pattern: RegExp;
  /** The label, given the match: "Debian (2+deb12u10)". */
  label: (match: RegExpExecArray) => string;
}

const RED_HAT_FAMILY = 'Red Hat Enterprise Linux or a rebuild';

/** Most specific first: a patch level beats a bare distribution name. */
const PATTERNS: readonly DistributionPattern[] = [
  { pattern: /\bDebian-(\S+)/i, label: (m) => `Debian (${m[1]})` },
  { pattern: /\bUbuntu-(\S+)/i, label: (m) => `Ubuntu (${m[1]})` },
  { pattern: /(\d[\w.]*[+~]deb\d+u\d+[\w.~+]*|[+~]deb\d+u\d+[\w.~+]*)/i, label: (m) => `Debian (${m[1]})` },
  { pattern: /(\d[\w.~]*ubuntu\d[\w.~+]*)/i, label: (m) => `Ubuntu (${m[1]})` },
  { pattern: /(?:^|[^a-z0-9])(el\d{1,2}(?:_\d+)?)(?![a-z0-9])/i, label: (m) => `${RED_HAT_FAMILY} (${m[1]})` },
  { pattern: /(?:^|[^a-z0-9])(fc\d{2})(?![a-z0-9])/i, label: (m) => `Fedora (${m[1]})` },
  { pattern: /(?:^|[^a-z0-9])(amzn\d*)(?![a-z0-9])/i, label: (m) => `Amazon Linux (${m[1]})` },
  { pattern: /\bFreeBSD-(\d{8})\b/, label: (m) => `FreeBSD (${m[1]})` },
  { pattern: /\bRaspbian\b/i, label: () => 'Raspbian' },
  { pattern: /\bUbuntu\b/i, label: () => 'Ubuntu' },
  { pattern: /\bDebian\b/i, label: () => 'Debian' },
  { pattern: /\b(?:Red Hat|RHEL|CentOS|Rocky|AlmaLinux|Oracle Linux)\b/i, label: (m) => `${m[0]} (${RED_HAT_FAMILY})` },
  { pattern: /\bFedora\b/i, label: () => 'Fedora' },
  { pattern: /\bAmazon(?: Linux)?\b/i, label: () => 'Amazon Linux' },
  { pattern: /\b(?:open)?SUSE\b|\bSLES\b/i, label: (m) => m[0] },
  { pattern: /\bAlpine\b/i, label: () => 'Alpine Linux' },
  { pattern: /\bFreeBSD\b/i, label: () => 'FreeBSD' },
];

/**
 * The distribution and patch level named in what follows a version in a banner, or undefined when
 * there is none: `Debian-2+deb12u10` → "Debian (2+deb12u10)", `(Ubuntu)` → "Ubuntu",
 * `el8` → "Red Hat Enterprise Linux or a rebuild (el8)", `+deb12u1` → "Debian (+deb12u1)",
 * `0ubuntu0.22.04.1` → "Ubuntu (0ubuntu0.22.04.1)". `(Unix)`, `(Win64)` and MariaDB's own
 * `+maria~deb12` builds are not distribution packages.
 */
export function distributionPatchLevel(extra: string): string | undefined {
  if (!extra.trim()) return undefined;
  for (const { pattern, label } of PATTERNS) {
    const match = pattern.exec(extra);
    if (match) return label(match);
  }
  return undefined;
}

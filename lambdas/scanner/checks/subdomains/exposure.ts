/**
 * Names that suggest a system not meant for the public: development and staging copies, admin
 * and database tools, CI servers, forgotten old versions. Such hosts tend to run older code, test
 * credentials and debug settings.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

const EXPOSED_LABELS = new Set([
  'dev', 'development', 'staging', 'stage', 'stg', 'test', 'testing', 'qa', 'uat', 'sandbox', 'preprod', 'pre-prod', 'debug',
  'admin', 'administrator', 'phpmyadmin', 'pma', 'db', 'mysql', 'sql', 'kibana', 'grafana', 'prometheus', 'elastic',
  'jenkins', 'ci', 'build', 'git', 'gitlab', 'svn', 'internal', 'intranet', 'backup', 'bak', 'old', 'legacy',
]);

/** The label that makes a name look non-public (`dev` in dev.example.com or api.dev.example.com), if any. */
export function exposedLabel(name: string, domain: string): string | undefined {
  const labels = name.slice(0, -(domain.length + 1)).split('.');
  return labels.find((label) => EXPOSED_LABELS.has(label) || /^(dev|test|staging|stage|uat|qa)[-_]?\d*$/.test(label));
}

const finding = findingsFor('subdomains');

/**
 * Analyze exposed environments. Low when at least one of them answers on 443 or 80 from the
 * internet (measured); info when they only resolve: a DNS name alone is not an open door, but it
 * tells an attacker where to look.
 */
export function analyzeExposure(domain: string, found: readonly { name: string; answers: boolean }[]): Finding[] {
  const exposed = found.filter((s) => exposedLabel(s.name, domain) !== undefined);
  if (exposed.length === 0) return [];
  const answering = exposed.filter((s) => s.answers);
  return [
    finding({
      id: 'subdomains.exposed-environment',
      title: answering.length > 0 ? 'Development, admin or legacy hosts are reachable from the internet' : 'Development, admin or legacy host names are public',
      severity: answering.length > 0 ? 'low' : 'info',
      category: 'Infrastructure',
      evidence: exposed.map((s) => `${s.name} (${s.answers ? 'answers' : 'resolves only'})`).join(', '),
      description:
        'Names like dev, staging, admin or old usually belong to systems that are less maintained than the main site (older software, test accounts, debug output) and are a favourite first target.',
      recommendation: 'Put non-public environments behind a VPN or an IP allow-list (or authentication), and remove DNS records for hosts that no longer exist.',
    }),
  ];
}

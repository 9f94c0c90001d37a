import { FREE_REPORT_GRANTS, formatPlanPrice, getPlan, type PlanGrants, type PlanId } from './plans.js';

/**
 * The pricing page's comparison tables (issue 21 "Tiers that are true"), printed from the plans'
 * grants — the same records the use cases read to decide the work done — so the table cannot say
 * more or less than the code grants. Pure, zod-free: the landing page bundles it.
 */

/** A cell: `true` / `false` for included or not, else the text to show. */
export type ComparisonCell = boolean | string;

export interface ComparisonColumn {
  id: PlanId | 'free';
  name: string;
  price: string;
}

export interface ComparisonRow {
  label: string;
  cells: ComparisonCell[];
}

export interface ComparisonTable {
  id: 'one-off' | 'monitoring';
  caption: string;
  columns: ComparisonColumn[];
  rows: ComparisonRow[];
}

interface RowSpec {
  label: string;
  value: (grants: PlanGrants) => ComparisonCell;
}

const count = (n: number) => n.toLocaleString('en-AU');
const days = (n: number) => `${n} days`;

const scanRows: RowSpec[] = [
  { label: 'Scan depth', value: (g) => (g.scanDepth === 'deep' ? 'Deep' : 'Standard') },
  { label: 'Ports checked', value: (g) => count(g.portsChecked) },
  {
    label: 'Every subdomain checked for TLS and headers',
    value: (g) => (g.subdomainsChecked > 0 ? `Every answering one, up to ${g.subdomainsChecked}` : false),
  },
  {
    label: 'Active checks (ports, exposed files, subdomain probing)',
    value: (g) => (g.scanMode === 'by-proof' ? 'When your email is at the domain or you verify it' : 'Yes: your verified domain'),
  },
];

const oneOffRows: RowSpec[] = [
  { label: 'Scans', value: (g) => (g.scans === null ? 'One report' : `${count(g.scans)} scans`) },
  ...scanRows,
  { label: 'PDF report', value: (g) => (g.pdf === 'full' ? 'Full, with fix guides' : 'Report') },
  { label: 'Fix guides for your platform (Microsoft 365, Cloudflare, WordPress…)', value: (g) => g.platformFixGuides },
  { label: 'Remediation plan', value: (g) => g.remediationPlan },
  { label: 'Essential Eight readiness section', value: (g) => g.essentialEight },
  { label: 'Free re-scan to confirm fixes', value: (g) => (g.rescanWithinDays === null ? false : `Within ${days(g.rescanWithinDays)}`) },
  { label: 'Badge eligibility', value: badge },
  { label: 'Support', value: support },
];

const monitoringRows: RowSpec[] = [
  { label: 'Scans a month', value: (g) => (g.scans === null ? false : count(g.scans)) },
  ...scanRows,
  { label: 'Re-scans of your verified domains', value: (g) => (g.monitoring ? capitalise(g.monitoring.cadence) : false) },
  { label: 'Domains monitored', value: (g) => (g.monitoring ? count(g.monitoring.maxDomains) : false) },
  { label: 'Alert on each detected change', value: (g) => (g.alerts.length === 0 ? false : g.alerts.map((a) => (a === 'sms' ? 'SMS' : 'Email')).join(' and ')) },
  { label: 'Monthly PDF report by email', value: (g) => g.monthlyReport },
  { label: 'Custom security policies', value: (g) => g.customPolicies },
  { label: 'Alerts in Slack, Teams or a signed webhook', value: (g) => g.alertDestinations },
  { label: 'API access', value: (g) => g.api },
  { label: 'Endpoint monitoring (OSQuery agent)', value: (g) => g.agents },
  { label: 'Badge eligibility', value: badge },
  { label: 'Support', value: support },
];

function badge(g: PlanGrants): ComparisonCell {
  if (g.badgeDays === null) return false;
  return g.badgeDays === 'while-subscribed' ? 'While subscribed' : days(g.badgeDays);
}

function support(g: PlanGrants): ComparisonCell {
  if (g.support === null) return false;
  return g.support === 'priority' ? 'Priority' : 'Email';
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The columns of each table: the free report beside what is sold once, and the monitoring plans. */
export const comparisonColumns = {
  'one-off': ['free', 'basic-audit', 'pro-audit', 'basic-scan', 'pro-scan'],
  monitoring: ['monitor-lite', 'monitor-plus'],
} as const satisfies Record<ComparisonTable['id'], readonly (PlanId | 'free')[]>;

/** The grants behind a column: the free report's, or the plan's. */
export function grantsOf(id: PlanId | 'free'): PlanGrants {
  return id === 'free' ? FREE_REPORT_GRANTS : getPlan(id).grants;
}

function column(id: PlanId | 'free'): ComparisonColumn {
  if (id === 'free') return { id, name: 'Free report', price: 'Free' };
  const plan = getPlan(id);
  return { id, name: plan.name, price: formatPlanPrice(plan) };
}

function table(id: ComparisonTable['id'], caption: string, rows: RowSpec[]): ComparisonTable {
  const ids = comparisonColumns[id];
  return {
    id,
    caption,
    columns: ids.map(column),
    rows: rows.map((row) => ({ label: row.label, cells: ids.map((columnId) => row.value(grantsOf(columnId))) })),
  };
}

/** The two comparison tables, from the catalogue's grants. */
export function planComparison(): ComparisonTable[] {
  return [
    table('one-off', 'What the free report, the audits and the scan packs include', oneOffRows),
    table('monitoring', 'What the monthly monitoring plans include', monitoringRows),
  ];
}

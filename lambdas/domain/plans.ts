/**
 * The plan catalogue (SPEC §9 "Prices", "Plans"; DECISIONS "Trial", "What paid audits add", "Plan
 * features"): one list read by the pricing section, the crawler page's test, checkout and
 * entitlements. Pure data, no imports: the landing page bundles it without zod, whose schemas for
 * plans live in `plan.contract.ts`.
 *
 * The spec has two price lists. The pricing section sells the one-off audits and the two monthly
 * monitoring plans; the subscription page adds two scan packs. The spec calls them "Basic Scan" and
 * "Pro Scan", which read as the Basic and Pro Audits at other prices (issue 29 item 2): here they are
 * the 5-Scan Pack and the 20-Scan Pack, named by what they hold. The spec gives the scan packs no
 * billing period while it writes "/month" for the monitoring plans, so they are one-off here. Every
 * page takes names and prices from this list; the free report's name is FREE_REPORT_NAME. Every price is in Australian dollars (the spec's "USD" trial currency is a slip).
 */

export const CURRENCY = 'aud' as const;

/** What the free scan is called wherever a report is listed (never 'Basic', the Basic Audit's word). */
export const FREE_REPORT_NAME = 'Free report';

export const planIds = ['basic-audit', 'pro-audit', 'monitor-lite', 'monitor-plus', 'basic-scan', 'pro-scan', 'trial'] as const;
export type PlanId = (typeof planIds)[number];

/** audit: a one-off deep audit of one site; subscription: monthly monitoring; scan-pack: a number of scans, paid once. */
export const planKinds = ['audit', 'subscription', 'scan-pack', 'trial'] as const;
/** one_off → a Checkout payment, monthly → a Checkout subscription, trial → nothing to pay. */
export const billingPeriods = ['one_off', 'monthly', 'trial'] as const;
/** SPEC §3: the subscription tier (basic, monitor_plus, "and others per plan"); audits are basic or pro. */
export const planTiers = ['basic', 'pro', 'monitor_lite', 'monitor_plus'] as const;

/** SPEC §3 "Plan catalogue entry"; `planSchema` in plan.contract.ts validates the same shape. */
export interface Plan {
  id: PlanId;
  name: string;
  kind: (typeof planKinds)[number];
  tier: (typeof planTiers)[number];
  /** In minor units (cents), as checkout and orders carry it. */
  amountCents: number;
  currency: typeof CURRENCY;
  billing: (typeof billingPeriods)[number];
  /** Scans the plan allows (per month for subscriptions, in total for packs and the trial); null: a single audit. */
  scansLimit: number | null;
  /** One line under the plan's name. */
  summary: string;
  features: readonly string[];
  /** What the plan really grants; `features` is written from it and the pricing comparison prints it. */
  grants: PlanGrants;
}

export const TRIAL_DAYS = 14;

/**
 * What a scan of each depth does (DECISIONS "What paid audits add"). `standard` is the free report's
 * scan: nmap's top 100 ports (the operator's SCAN_TOP_PORTS, 100 by default) of the site itself.
 * `deep`: the top 1,000 ports, and the subdomains the subdomain search found answering each checked for
 * TLS (a handshake on 443) and security headers — up to 25 of them (the subdomain-surface check's
 * MAX_SURFACE_SUBDOMAINS; the report says when there were more). run-scan reads this.
 */
export const SCAN_DEPTHS = {
  standard: { topPorts: 100, subdomainsChecked: 0 },
  deep: { topPorts: 1000, subdomainsChecked: 25 },
} as const;
export type ScanDepthName = keyof typeof SCAN_DEPTHS;

/**
 * What a plan grants (issue 21 "Tiers that are true"): the one record the use cases read to decide
 * the work done, and the pricing page's comparison table prints. `features` below is written from it.
 */
export interface PlanGrants {
  /** How deep each scan the plan pays for goes (SCAN_DEPTHS). */
  scanDepth: ScanDepthName;
  /** by-proof: active with proof of control of the domain, else passive (the free report); verified-domain: always a verified domain, so active. */
  scanMode: 'by-proof' | 'verified-domain';
  /** Ports each scan tries (SCAN_DEPTHS[scanDepth].topPorts). */
  portsChecked: number;
  /** Answering subdomains each scan checks for TLS and security headers; 0: the site itself only. */
  subdomainsChecked: number;
  /** report: the PDF of the findings; full: with the fix guides for the platforms the site runs on. */
  pdf: 'report' | 'full';
  /** Numbered fix steps for the detected platform (Microsoft 365, Cloudflare, WordPress…). */
  platformFixGuides: boolean;
  /** A step-by-step remediation plan per finding. */
  remediationPlan: boolean;
  /** The Essential Eight readiness section in the PDF. */
  essentialEight: boolean;
  /** A free deep re-scan of the same report within this many days of buying; null: none. */
  rescanWithinDays: number | null;
  /** Badge eligibility: days from the purchase, 'while-subscribed' for an active subscription, null: none. */
  badgeDays: number | 'while-subscribed' | null;
  /** Scheduled re-scans of the verified domains; null: none. */
  monitoring: { cadence: 'weekly' | 'daily'; maxDomains: number } | null;
  /** How each detected change is announced (DECISIONS "Plan features": "real-time alerts"). */
  alerts: readonly ('email' | 'sms')[];
  monthlyReport: boolean;
  /** Personal API tokens for reading audits and starting scans. */
  api: boolean;
  /** Enrolling machines with the OSQuery agent. */
  agents: boolean;
  /** Accepting or muting a finding with a reason. */
  customPolicies: boolean;
  /** Alerts also sent to Slack, Microsoft Teams or a signed webhook (issue 22; lambdas/domain/alert-destinations.ts). */
  alertDestinations: boolean;
  support: 'email' | 'priority' | null;
  /** Scans the user may start (per month for subscriptions, in total for packs and the trial); null: the one report or audit. */
  scans: number | null;
}

const NOTHING_MORE = {
  platformFixGuides: false,
  remediationPlan: false,
  essentialEight: false,
  rescanWithinDays: null,
  badgeDays: null,
  monitoring: null,
  alerts: [],
  monthlyReport: false,
  api: false,
  agents: false,
  customPolicies: false,
  alertDestinations: false,
} as const satisfies Partial<PlanGrants>;

const standardScan = { scanDepth: 'standard', portsChecked: SCAN_DEPTHS.standard.topPorts, subdomainsChecked: SCAN_DEPTHS.standard.subdomainsChecked } as const;
const deepScan = { scanDepth: 'deep', portsChecked: SCAN_DEPTHS.deep.topPorts, subdomainsChecked: SCAN_DEPTHS.deep.subdomainsChecked } as const;

/** The free report: a standard scan, active with proof of control of the domain, else passive; the report and its PDF. */
export const FREE_REPORT_GRANTS = { ...NOTHING_MORE, ...standardScan, scanMode: 'by-proof', pdf: 'report', support: null, scans: null } as const satisfies PlanGrants;

const BASIC_AUDIT_GRANTS = {
  ...NOTHING_MORE,
  ...deepScan,
  scanMode: 'verified-domain',
  pdf: 'full',
  platformFixGuides: true,
  badgeDays: 30,
  support: 'email',
  scans: null,
} as const satisfies PlanGrants;

const PRO_AUDIT_GRANTS = { ...BASIC_AUDIT_GRANTS, remediationPlan: true, essentialEight: true, rescanWithinDays: 30, badgeDays: 90 } as const satisfies PlanGrants;

/** A scan-pack scan: a deep scan of a verified domain with its report and PDF (not a copy of the free scan). */
const SCAN_PACK_SCAN = { ...NOTHING_MORE, ...deepScan, scanMode: 'verified-domain', pdf: 'report' } as const;
const BASIC_SCAN_GRANTS = { ...SCAN_PACK_SCAN, support: 'email', scans: 5 } as const satisfies PlanGrants;
const PRO_SCAN_GRANTS = { ...SCAN_PACK_SCAN, support: 'priority', scans: 20 } as const satisfies PlanGrants;

const MONITOR_LITE_GRANTS = {
  ...NOTHING_MORE,
  ...standardScan,
  scanMode: 'verified-domain',
  pdf: 'report',
  badgeDays: 'while-subscribed',
  monitoring: { cadence: 'weekly', maxDomains: 6 },
  alerts: ['email'],
  monthlyReport: true,
  support: 'email',
  scans: 30,
} as const satisfies PlanGrants;

const MONITOR_PLUS_GRANTS = {
  ...MONITOR_LITE_GRANTS,
  monitoring: { cadence: 'daily', maxDomains: 12 },
  alerts: ['email', 'sms'],
  api: true,
  agents: true,
  customPolicies: true,
  alertDestinations: true,
  support: 'priority',
  scans: 100,
} as const satisfies PlanGrants;

const TRIAL_GRANTS = { ...NOTHING_MORE, ...standardScan, scanMode: 'verified-domain', pdf: 'report', support: 'email', scans: 3 } as const satisfies PlanGrants;

/** Every plan's grants by id, and the free report's under `free`, with their literal values. */
export const PLAN_GRANTS = {
  free: FREE_REPORT_GRANTS,
  'basic-audit': BASIC_AUDIT_GRANTS,
  'pro-audit': PRO_AUDIT_GRANTS,
  'monitor-lite': MONITOR_LITE_GRANTS,
  'monitor-plus': MONITOR_PLUS_GRANTS,
  'basic-scan': BASIC_SCAN_GRANTS,
  'pro-scan': PRO_SCAN_GRANTS,
  trial: TRIAL_GRANTS,
} as const satisfies Record<PlanId | 'free', PlanGrants>;

/** How long a paid audit makes the domain's badge eligible (DECISIONS "What paid audits add"). */
export const AUDIT_BADGE_ELIGIBILITY_DAYS = { 'basic-audit': BASIC_AUDIT_GRANTS.badgeDays, 'pro-audit': PRO_AUDIT_GRANTS.badgeDays } as const;

const thousands = (n: number) => n.toLocaleString('en-AU');

// The feature lines are written from the grants, so a card cannot promise what the code does not grant.
const deepScanLines = (g: PlanGrants) => [
  `Deep port scan of the ${thousands(g.portsChecked)} most common ports`,
  `Every answering subdomain (up to ${g.subdomainsChecked}) checked for TLS and security headers`,
];
const badgeLine = (days: number) => `Security badge eligibility for ${days} days`;

const catalogue = [
  {
    id: 'basic-audit',
    name: 'Basic Audit',
    kind: 'audit',
    tier: 'basic',
    amountCents: 24_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: BASIC_AUDIT_GRANTS.scans,
    summary: 'A deep scan of your website with the full PDF report.',
    features: [
      ...deepScanLines(BASIC_AUDIT_GRANTS),
      'The full list of matching CVEs with CVSS scores and patch advice',
      'Full PDF report with fix guides for your platform (Microsoft 365, Cloudflare, WordPress…)',
      badgeLine(BASIC_AUDIT_GRANTS.badgeDays),
    ],
    grants: BASIC_AUDIT_GRANTS,
  },
  {
    id: 'pro-audit',
    name: 'Pro Audit',
    kind: 'audit',
    tier: 'pro',
    amountCents: 39_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: PRO_AUDIT_GRANTS.scans,
    summary: 'Everything in the Basic Audit, plus a plan to fix it and proof that you did.',
    features: [
      'Everything in Basic Audit',
      'A step-by-step remediation plan for each finding',
      'An Essential Eight readiness section in your PDF',
      `A free re-scan within ${PRO_AUDIT_GRANTS.rescanWithinDays} days to confirm your fixes`,
      badgeLine(PRO_AUDIT_GRANTS.badgeDays),
    ],
    grants: PRO_AUDIT_GRANTS,
  },
  {
    id: 'monitor-lite',
    name: 'Monitor Lite',
    kind: 'subscription',
    tier: 'monitor_lite',
    amountCents: 4_900,
    currency: CURRENCY,
    billing: 'monthly',
    scansLimit: MONITOR_LITE_GRANTS.scans,
    summary: 'Basic monitoring, scoring and monthly reports.',
    features: [
      `Basic monitoring: ${MONITOR_LITE_GRANTS.monitoring.cadence} re-scans of your verified domains`,
      'Security score and grade tracked over time',
      'Monthly PDF report by email',
      `${MONITOR_LITE_GRANTS.scans} scans a month`,
    ],
    grants: MONITOR_LITE_GRANTS,
  },
  {
    id: 'monitor-plus',
    name: 'Monitor Plus',
    kind: 'subscription',
    tier: 'monitor_plus',
    amountCents: 9_900,
    currency: CURRENCY,
    billing: 'monthly',
    scansLimit: MONITOR_PLUS_GRANTS.scans,
    summary: `${MONITOR_PLUS_GRANTS.monitoring.cadence[0]!.toUpperCase()}${MONITOR_PLUS_GRANTS.monitoring.cadence.slice(1)} re-scans, an email and SMS alert on each change they find, and priority support.`,
    features: [
      `Advanced threat detection: ${MONITOR_PLUS_GRANTS.monitoring.cadence} re-scans, new open ports and newly exploited CVEs`,
      `An email and SMS alert on each change a ${MONITOR_PLUS_GRANTS.monitoring.cadence} re-scan finds`,
      'Priority support',
      'Custom security policies: accept or mute a finding with a reason',
      'Alerts in Slack, Microsoft Teams or a signed webhook',
      'Detailed reporting',
      'API access with personal API tokens',
      'Local endpoint monitoring with the OSQuery agent',
      `${MONITOR_PLUS_GRANTS.scans} scans a month`,
    ],
    grants: MONITOR_PLUS_GRANTS,
  },
  {
    id: 'basic-scan',
    name: `${BASIC_SCAN_GRANTS.scans}-Scan Pack`,
    kind: 'scan-pack',
    tier: 'basic',
    amountCents: 24_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: BASIC_SCAN_GRANTS.scans,
    summary: 'Five deep scans of your verified domains, whenever you need them.',
    features: [`${BASIC_SCAN_GRANTS.scans} deep scans of your verified domains`, ...deepScanLines(BASIC_SCAN_GRANTS), 'A report and PDF for every scan', 'Email support'],
    grants: BASIC_SCAN_GRANTS,
  },
  {
    id: 'pro-scan',
    name: `${PRO_SCAN_GRANTS.scans}-Scan Pack`,
    kind: 'scan-pack',
    tier: 'pro',
    amountCents: 44_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: PRO_SCAN_GRANTS.scans,
    summary: 'Twenty deep scans of your verified domains, whenever you need them.',
    features: [`${PRO_SCAN_GRANTS.scans} deep scans of your verified domains`, ...deepScanLines(PRO_SCAN_GRANTS), 'A report and PDF for every scan', 'Priority support'],
    grants: PRO_SCAN_GRANTS,
  },
  {
    id: 'trial',
    name: 'Free Trial',
    kind: 'trial',
    tier: 'basic',
    amountCents: 0,
    currency: CURRENCY,
    billing: 'trial',
    scansLimit: TRIAL_GRANTS.scans,
    summary: `Every new account starts with a ${TRIAL_DAYS}-day trial.`,
    features: ['Basic security scans', 'Email support', 'Standard reporting'],
    grants: TRIAL_GRANTS,
  },
] as const satisfies readonly Plan[];

export const plans: readonly Plan[] = catalogue;

export function getPlan(id: PlanId): Plan {
  const plan = plans.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`No plan with id ${id}`);
  return plan;
}

/** DECISIONS "Plan features": what a plan includes beyond its scans, asked by name where it is enforced. */
export type PlanCapability = 'api-access' | 'custom-policies' | 'endpoint-agents' | 'alert-destinations';

// "API access" (Monitor Plus) = personal API tokens for reading audits and starting scans.
// "Custom security policies" = accepting or muting a finding with a reason (lambdas/domain/security-policy.ts).
// "Local endpoint monitoring with the OSQuery agent" = enrolling machines (lambdas/domain/agents.ts canEnrollAgents).
// "Alerts in Slack, Microsoft Teams or a signed webhook" = alert destinations (lambdas/domain/alert-destinations.ts).
const CAPABILITY_GRANT = { 'api-access': 'api', 'custom-policies': 'customPolicies', 'endpoint-agents': 'agents', 'alert-destinations': 'alertDestinations' } as const satisfies Record<
  PlanCapability,
  keyof PlanGrants
>;

/** Whether the plan includes the capability (the plan's grants; whether it is paid up is the caller's question). */
export function planIncludes(planId: PlanId, capability: PlanCapability): boolean {
  return getPlan(planId).grants[CAPABILITY_GRANT[capability]];
}

/** What a listed report is: the free report, or the Basic or Pro Audit bought last (never 'Basic' for a free scan). */
export type ReportProduct = 'free-report' | 'basic-audit' | 'pro-audit';

export function reportProduct(audit: { isPremium?: boolean; planType?: 'basic' | 'pro' }): ReportProduct {
  if (audit.isPremium !== true) return 'free-report';
  return audit.planType === 'pro' ? 'pro-audit' : 'basic-audit';
}

export const reportProducts = ['free-report', 'basic-audit', 'pro-audit'] as const satisfies readonly ReportProduct[];

/** 'Free report', 'Basic Audit', 'Pro Audit': the catalogue's names. */
export function reportProductName(product: ReportProduct): string {
  return product === 'free-report' ? FREE_REPORT_NAME : getPlan(product).name;
}

/**
 * What a report grants, by what was paid for it (SPEC §3 premium fields): the free report, or the
 * Basic or Pro Audit bought last. The report, its PDF and the re-scan ask this, not the plan ids.
 */
export function auditGrants(audit: { isPremium?: boolean; planType?: 'basic' | 'pro' }): PlanGrants {
  if (audit.isPremium !== true) return FREE_REPORT_GRANTS;
  return getPlan(audit.planType === 'pro' ? 'pro-audit' : 'basic-audit').grants;
}

/**
 * DECISIONS "Scan counting": how deep a scan the user starts goes. The plan's own scans (the trial's,
 * or an active subscription's) are drawn first, then the scan packs' (as the period's carry-over
 * counts them: dynamodb-billing.adapter startScanPeriod). A scan drawn from a pack is a pack's scan,
 * whichever pack: every pack's scan is the same (a unit test holds their per-scan grants equal).
 */
export function startedScanDepth(allowancePlanId: PlanId, drawnFromPack: boolean): ScanDepthName {
  const pays = drawnFromPack ? plans.find((plan) => plan.kind === 'scan-pack') : getPlan(allowancePlanId);
  return pays?.grants.scanDepth ?? 'standard';
}

/** The plans that include a capability, for upgrade notes ('Monitor Plus'). */
export function plansIncluding(capability: PlanCapability): Plan[] {
  return plans.filter((plan) => planIncludes(plan.id, capability));
}

/** SPEC §2 "Pricing section": two tabs of two plan cards each. */
export const pricingTabs = [
  { id: 'audits', label: 'Security Audits', planIds: ['basic-audit', 'pro-audit'] },
  { id: 'monthly', label: 'Monthly Protection', planIds: ['monitor-lite', 'monitor-plus'] },
] as const satisfies readonly { id: string; label: string; planIds: readonly PlanId[] }[];

export type PricingTabId = (typeof pricingTabs)[number]['id'];

/** The Checkout mode a plan is bought with; null for the trial, which nobody pays for. */
export function checkoutMode(plan: Plan): 'payment' | 'subscription' | null {
  if (plan.billing === 'monthly') return 'subscription';
  if (plan.billing === 'one_off') return 'payment';
  return null;
}

/**
 * SPEC §9 "Money format": minor units divided by 100, in the English-Australian format, with the
 * currency shown as A$ so visitors outside Australia read Australian dollars. Whole amounts drop
 * the cents: 24900 → 'A$249', 24950 → 'A$249.50'.
 */
export function formatMoney(amountMinor: number, currency: string = CURRENCY): string {
  const whole = amountMinor % 100 === 0;
  const parts = new Intl.NumberFormat('en-AU', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).formatToParts(amountMinor / 100);
  const isAud = currency.toLowerCase() === CURRENCY;
  return parts.map((part) => (part.type === 'currency' && isAud ? 'A$' : part.value)).join('');
}

/** 'A$249' for a one-off plan, 'A$49/month' for a monthly one, 'Free' for the trial. */
export function formatPlanPrice(plan: Plan): string {
  if (plan.billing === 'trial') return 'Free';
  const amount = formatMoney(plan.amountCents, plan.currency);
  return plan.billing === 'monthly' ? `${amount}/month` : amount;
}

/** The lowest price of a kind of plan, for copy such as 'from A$249' that must follow the catalogue. */
export function lowestPrice(kind: Plan['kind']): Plan {
  const ofKind = plans.filter((plan) => plan.kind === kind);
  const lowest = ofKind.reduce<Plan | undefined>((min, plan) => (!min || plan.amountCents < min.amountCents ? plan : min), undefined);
  if (!lowest) throw new Error(`No plan of kind ${kind}`);
  return lowest;
}

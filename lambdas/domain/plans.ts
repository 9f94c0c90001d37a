/**
 * The plan catalogue (SPEC §9 "Prices", "Plans"; DECISIONS "Trial", "What paid audits add", "Plan
 * features"): one list read by the pricing section, the crawler page's test, checkout and
 * entitlements. Pure data, no imports: the landing page bundles it without zod, whose schemas for
 * plans live in `plan.contract.ts`.
 *
 * The spec has two price lists. The pricing section sells the one-off audits and the two monthly
 * monitoring plans; the subscription page adds two scan packs (Basic Scan, Pro Scan). The spec gives
 * the scan packs no billing period while it writes "/month" for the monitoring plans, so they are
 * one-off here. Every price is in Australian dollars (the spec's "USD" trial currency is a slip).
 */

export const CURRENCY = 'aud' as const;

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
}

export const TRIAL_DAYS = 14;

/** How long a paid audit makes the domain's badge eligible (DECISIONS "What paid audits add"). */
export const AUDIT_BADGE_ELIGIBILITY_DAYS = { 'basic-audit': 30, 'pro-audit': 90 } as const;

const catalogue = [
  {
    id: 'basic-audit',
    name: 'Basic Audit',
    kind: 'audit',
    tier: 'basic',
    amountCents: 24_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: null,
    summary: 'A deep scan of your website with the full PDF report.',
    features: [
      'Deep port scan of the 1,000 most common ports',
      'Every discovered subdomain checked for TLS and security headers',
      'The full list of matching CVEs with CVSS scores and patch advice',
      'Full PDF report',
      `Security badge eligibility for ${AUDIT_BADGE_ELIGIBILITY_DAYS['basic-audit']} days`,
    ],
  },
  {
    id: 'pro-audit',
    name: 'Pro Audit',
    kind: 'audit',
    tier: 'pro',
    amountCents: 39_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: null,
    summary: 'Everything in the Basic Audit, plus a plan to fix it and proof that you did.',
    features: [
      'Everything in Basic Audit',
      'A step-by-step remediation plan for each finding',
      'A free re-scan within 30 days to confirm your fixes',
      `Security badge eligibility for ${AUDIT_BADGE_ELIGIBILITY_DAYS['pro-audit']} days`,
    ],
  },
  {
    id: 'monitor-lite',
    name: 'Monitor Lite',
    kind: 'subscription',
    tier: 'monitor_lite',
    amountCents: 4_900,
    currency: CURRENCY,
    billing: 'monthly',
    scansLimit: 30,
    summary: 'Basic monitoring, scoring and monthly reports.',
    features: [
      'Basic monitoring: weekly re-scans of your verified domains',
      'Security score and grade tracked over time',
      'Monthly PDF report by email',
      '30 scans a month',
    ],
  },
  {
    id: 'monitor-plus',
    name: 'Monitor Plus',
    kind: 'subscription',
    tier: 'monitor_plus',
    amountCents: 9_900,
    currency: CURRENCY,
    billing: 'monthly',
    scansLimit: 100,
    summary: 'Advanced threat detection, real-time alerts and priority support.',
    features: [
      'Advanced threat detection: daily re-scans, new open ports and newly exploited CVEs',
      'Real-time monitoring: an email and SMS alert on each detected change',
      'Priority support',
      'Custom security policies: accept or mute a finding with a reason',
      'Detailed reporting',
      'API access with personal API tokens',
      'Local endpoint monitoring with the OSQuery agent',
      '100 scans a month',
    ],
  },
  {
    id: 'basic-scan',
    name: 'Basic Scan',
    kind: 'scan-pack',
    tier: 'basic',
    amountCents: 24_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: 5,
    summary: 'Five scans of your verified domains, whenever you need them.',
    features: ['5 scans of your verified domains', 'A report and PDF for every scan', 'Email support'],
  },
  {
    id: 'pro-scan',
    name: 'Pro Scan',
    kind: 'scan-pack',
    tier: 'pro',
    amountCents: 44_900,
    currency: CURRENCY,
    billing: 'one_off',
    scansLimit: 20,
    summary: 'Twenty scans of your verified domains, whenever you need them.',
    features: ['20 scans of your verified domains', 'A report and PDF for every scan', 'Priority support'],
  },
  {
    id: 'trial',
    name: 'Free Trial',
    kind: 'trial',
    tier: 'basic',
    amountCents: 0,
    currency: CURRENCY,
    billing: 'trial',
    scansLimit: 3,
    summary: `Every new account starts with a ${TRIAL_DAYS}-day trial.`,
    features: ['Basic security scans', 'Email support', 'Standard reporting'],
  },
] as const satisfies readonly Plan[];

export const plans: readonly Plan[] = catalogue;

export function getPlan(id: PlanId): Plan {
  const plan = plans.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`No plan with id ${id}`);
  return plan;
}

/** DECISIONS "Plan features": what a plan includes beyond its scans, asked by name where it is enforced. */
export type PlanCapability = 'api-access' | 'custom-policies' | 'endpoint-agents';

const PLAN_CAPABILITIES: Partial<Record<PlanId, readonly PlanCapability[]>> = {
  // "API access" (Monitor Plus) = personal API tokens for reading audits and starting scans.
  // "Custom security policies" = accepting or muting a finding with a reason (lambdas/domain/security-policy.ts).
  // "Local endpoint monitoring with the OSQuery agent" = enrolling machines (lambdas/domain/agents.ts canEnrollAgents).
  'monitor-plus': ['api-access', 'custom-policies', 'endpoint-agents'],
};

/** Whether the plan includes the capability (the plan's own list; whether it is paid up is the caller's question). */
export function planIncludes(planId: PlanId, capability: PlanCapability): boolean {
  return PLAN_CAPABILITIES[planId]?.includes(capability) ?? false;
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

import { getPlan, PLAN_GRANTS } from '../lib/catalogue';
import { env } from './env';

/**
 * The site's marketing copy, in one file so the business can change it. No figure lives here
 * (DECISIONS "Marketing figures are measured"): the pages take their figures from GET /api/stats
 * or a named measurement (lambdas/domain/platform-figures.ts), and prices, cadences and plan names
 * from the plan catalogue. What is left are promises, each one what the product does.
 */

const productName = env.PRODUCT_NAME;
const productSlug = productName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

const monitorLite = getPlan('monitor-lite');
const monitorPlus = getPlan('monitor-plus');
/** 'daily (Monitor Plus) or weekly (Monitor Lite)', from the plans' grants (lambdas/domain/monitoring.ts rescans on them). */
const rescanCadence = `${PLAN_GRANTS['monitor-plus'].monitoring.cadence} (${monitorPlus.name}) or ${PLAN_GRANTS['monitor-lite'].monitoring.cadence} (${monitorLite.name})`;

/**
 * Promises, not figures: each is what the product does. The free scan stops at its deadline
 * (SCAN_DEADLINE_MS, 40 s; a unit test holds it under 60 s).
 */
export const promises = {
  reportTime: { value: 'Under 60 seconds', label: 'to your free security report' },
} as const;

/** The lowest prices, formatted, that the 'why choose us' steps quote. */
export interface StepPrices {
  auditFrom: string;
  monitoringFrom: string;
}

export const content = {
  productName,
  pitch: 'A free, real security report for your small-business website, in under 60 seconds.',

  hero: {
    eyebrow: 'Free website security report · no card, no password to make up',
    title: 'Find the holes in your website before attackers do',
    lead: `${productName} scans your business website for known vulnerabilities, exposed services, leaked passwords and weak email and TLS settings, and explains each problem in plain English — in under 60 seconds.`,
    primaryCta: 'Start Your Free Security Assessment',
    secondaryCta: 'View Premium Plans',
    loginPrompt: 'Already a client?',
  },

  reportPreview: {
    title: 'See what your free report shows',
    lead: 'A score, a grade and a risk level, the issues that matter most and what to do about each one.',
  },

  dashboardPreview: {
    title: 'A dashboard for everything you have scanned',
    lead: 'Clients see every audit, how their score moves over time, and what changed since the last scan.',
  },

  scanAreas: {
    title: 'Four areas, checked on every scan',
    lead: 'The checks run against your site in parallel, and your report is ready as soon as they finish.',
    cards: [
      {
        id: 'vulnerabilities',
        title: 'Vulnerability scan',
        body: 'Your web server, CMS, language and JavaScript libraries are identified from headers, page markup and banners, then matched against known CVEs.',
        points: ['CVE matching with CVSS scores', 'Known-exploited vulnerabilities flagged', 'The version that fixes each one'],
      },
      {
        id: 'network',
        title: 'Network security',
        body: 'The most commonly used ports are probed to see which services answer from the internet and what they are.',
        points: ['Open ports and their services', 'Remote access and databases exposed', 'Whether a firewall filters the rest'],
      },
      {
        id: 'breaches',
        title: 'Password breaches',
        body: 'Your business email address is checked against known data breaches, so you know which passwords to change.',
        points: ['Business email breach check', 'Which breaches and when', 'Multi-factor authentication advice'],
      },
      {
        id: 'infrastructure',
        title: 'Infrastructure map',
        body: 'Your domain is mapped: its subdomains, DNS, certificates and email protection, and the software behind the site.',
        points: ['Subdomains and DNS records', 'SSL/TLS versions and certificates', 'SPF, DKIM and DMARC; WordPress detection'],
      },
    ],
  },

  leadForm: {
    eyebrow: 'Free security report',
    lead: 'Find out where your website stands — free, with no card. We keep your report in an account for you and email you a link to choose a password.',
  },

  commandCentre: {
    title: 'Your security command centre',
    lead: 'Once you are a client, everything about your sites lives in one place.',
    history: {
      title: 'Audit history and trends',
      body: 'Every scan is kept with its score, grade and findings. Sort and filter your history, export it as CSV and watch your score improve as you fix things.',
    },
    badge: {
      title: 'Security badges',
      body: `Show visitors you take security seriously with a “Protected by ${productName}” badge. It links to a page that shows your current grade, so it stays honest.`,
      sampleNote: 'Sample badge for example.com. Real badges show your own grade and last scan date.',
      copyButton: 'Copy Code',
      downloadButton: 'Download',
      copied: 'Copied to clipboard!',
      copyFailed: 'Could not copy. Select the code and copy it yourself.',
    },
    monitoring: {
      title: 'Continuous monitoring',
      body: `Your verified domains are re-scanned ${rescanCadence}, and you get an email (and with ${monitorPlus.name} an SMS) when something changes — a new open port, a new vulnerability, a certificate about to expire.`,
    },
  },

  whyChooseUs: {
    title: `Why businesses choose ${productName}`,
    /** Prices come from the plan catalogue, so the copy cannot drift from what checkout charges. */
    steps: [
      {
        title: 'Free discovery',
        body: () =>
          'Start with a free report in under 60 seconds — no card; we keep it in an account for you. It shows the issues that matter most and what to do about each one.',
      },
      {
        title: 'Complete analysis',
        body: ({ auditFrom }: StepPrices) =>
          `If your report finds issues, a paid audit goes deeper — ${PLAN_GRANTS['basic-audit'].portsChecked.toLocaleString('en-AU')} ports, every answering subdomain, every matching CVE — with detailed remediation from ${auditFrom}.`,
      },
      {
        title: 'Ongoing protection',
        body: ({ monitoringFrom }: StepPrices) =>
          `Monitoring re-scans your verified domains ${rescanCadence} and alerts you when something changes, from ${monitoringFrom}.`,
      },
    ],
  },

  pricing: {
    title: 'Premium plans',
    lead: 'Go deeper than the free report, or keep watch every month. All prices in Australian dollars (AUD).',
    auditsNote: 'Start with the free report: it shows whether a deep audit is worth it for your site.',
    monthlyNote: 'Monitoring covers the domains you verify in your dashboard. All prices in AUD.',
    subscriberDiscount: 'Subscribers get automatic discounts on audits, applied at checkout.',
    processing: 'Processing...',
  },

  /** Who the legal pages speak for (SPEC §2 Terms, Privacy): one entity, an Australian business serving customers worldwide. */
  legal: {
    entity: `${productName}, an Australian business`,
    /** Replace with the business's real addresses before going live. */
    privacyEmail: `privacy@${productSlug}.example`,
    supportEmail: `support@${productSlug}.example`,
    /** The date the current versions took effect; the privacy policy's next review is a year after it. */
    effectiveDate: '2026-11-01',
    privacyPolicyVersion: '1.0',
  },

  footer: {
    tagline: 'Website security assessments for small businesses.',
  },
} as const;

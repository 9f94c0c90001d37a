import * as z from 'zod';
import { isHostName } from './target.js';

/**
 * Issue 21 "Essential Eight readiness": the contract of `GET /api/me/essential-eight/{domain}`
 * (route `get-essential-eight`), shared by the API, the dashboard section and the PDF section. zod
 * and types only; the mapping itself is lambdas/domain/essential-eight.ts.
 *
 * A readiness view, never an assessment: what the web scan and the endpoint agents saw, put beside
 * the ACSC Essential Eight's Maturity Level One, with how to check what cannot be seen from outside.
 */

export const essentialEightStrategyIds = [
  'patch-applications',
  'patch-operating-systems',
  'multi-factor-authentication',
  'restrict-administrative-privileges',
  'application-control',
  'office-macros',
  'user-application-hardening',
  'regular-backups',
] as const;
export type EssentialEightStrategyId = (typeof essentialEightStrategyIds)[number];

/** One status per strategy: what was seen points towards ML1, away from it, or nothing seen bears on it. */
export const essentialEightStatuses = ['evidence-for', 'evidence-against', 'not-assessable'] as const;
export type EssentialEightStatus = (typeof essentialEightStatuses)[number];

export const ESSENTIAL_EIGHT_STATUS_LABELS: Record<EssentialEightStatus, string> = {
  'evidence-for': 'Evidence for',
  'evidence-against': 'Evidence against',
  'not-assessable': 'Cannot be assessed from outside',
};

/**
 * Printed with every Essential Eight view (dashboard, Pro PDF, monthly report), word for word. The
 * view must never read as a compliance or maturity claim.
 */
export const ESSENTIAL_EIGHT_DISCLAIMER =
  'This is a readiness view, not an Essential Eight assessment or a statement of compliance. It sets what our web scan and your endpoint agents observed beside the ACSC Essential Eight Maturity Level One requirements. Most of the Essential Eight can only be confirmed inside your organisation: an assessment needs an assessor to check your systems, policies and records against the ACSC\'s Essential Eight Assessment Process Guide.';

/** One observation behind a status. `neutral`: worth knowing, but it moves the status neither way. */
export interface EssentialEightEvidence {
  effect: 'for' | 'against' | 'neutral';
  source: 'web-scan' | 'agent';
  /** What was seen: "Apache HTTP Server 2.4.49: CVE-2021-41773 is known exploited (CISA KEV since 2021-11-03)". */
  what: string;
  /** Where: "https://shop.example.com/ (scan of 2026-11-20)", "agent on FRONT-DESK-PC". */
  where: string;
  /** When it was seen (the scan's completion, the agent's last report). */
  seenAt: string;
  /** The web scan finding it comes from, when it comes from one. */
  findingId?: string;
}

export interface EssentialEightStrategyView {
  id: EssentialEightStrategyId;
  /** "Patch applications". */
  title: string;
  /** What Maturity Level One asks, in one or two plain sentences. */
  requirement: string;
  status: EssentialEightStatus;
  statusLabel: string;
  /** Against first, then for, then neutral. */
  evidence: EssentialEightEvidence[];
  /** Plain steps to check it yourself (always given: outside evidence never settles a strategy). */
  howToCheck: string[];
}

export interface EssentialEightView {
  domain: string;
  maturityLevel: 'ML1';
  disclaimer: string;
  generatedAt: string;
  sources: {
    /** The latest completed scan of the domain that was used, or null when there is none. */
    webScan: { auditId: string; completedAt: string } | null;
    /** The domain's agents with a report, and all of them. */
    agents: { reporting: number; total: number };
  };
  strategies: EssentialEightStrategyView[];
}

/** The path of `get-essential-eight`: one of the caller's domains. */
export const essentialEightParamsSchema = z.object({
  domain: z
    .string({ error: 'A domain is required' })
    .trim()
    .toLowerCase()
    .min(1, 'A domain is required')
    .max(253, 'Invalid domain')
    .refine((value) => isHostName(value), 'Invalid domain'),
});

export const essentialEightMessages = {
  domainNotFound: 'That domain is not one of your domains. Add it in Settings -> Domains.',
} as const;

import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import type { Audit } from '../domain/audit.js';
import { isBotUserAgent } from '../domain/bots.js';
import { parseContract } from '../domain/contract.js';
import { leadInputSchema, summarizeLeadErrors } from '../domain/lead.contract.js';

export interface SubmitLeadContext {
  sourceIp: string;
  userAgent: string;
}

export interface SubmitLeadResult {
  auditId: string;
  leadId: string;
  accountCreated: boolean;
  /** False when nothing was scanned (a bot): the caller still answers as if it had been. */
  scanned: boolean;
}

/**
 * A visitor asks for a free report: the lead and its audit are stored, and a scan job is queued.
 * The answer comes at once; the scan runs in the worker.
 */
export async function submitLead(deps: Pick<Deps, 'audits' | 'scanJobs' | 'clock'>, input: unknown, context: SubmitLeadContext): Promise<SubmitLeadResult> {
  const lead = parseContract(leadInputSchema, input, (fields) => summarizeLeadErrors(fields, input));
  if (isBotUserAgent(context.userAgent)) {
    // SPEC §4 "Lead submission": bots get an id that names itself, and nothing is stored or scanned.
    return { auditId: `bot_safe_${randomUUID()}`, leadId: '', accountCreated: false, scanned: false };
  }
  const now = deps.clock.now().toISOString();
  const leadId = randomUUID();
  const audit: Audit = {
    id: randomUUID(),
    leadId,
    targetUrl: lead.webUrl.url,
    host: lead.webUrl.host,
    status: 'queued',
    createdAt: now,
    checks: [],
  };
  await deps.audits.createLeadWithAudit(
    {
      id: leadId,
      firstName: lead.firstName,
      lastName: lead.lastName,
      businessName: lead.businessName,
      email: lead.email,
      mobileNumber: lead.mobileNumber,
      webUrl: lead.webUrl.url,
      host: lead.webUrl.host,
      sourceIp: context.sourceIp || undefined,
      createdAt: now,
    },
    audit,
  );
  await deps.scanJobs.enqueue({ auditId: audit.id, kind: 'scan' });
  return { auditId: audit.id, leadId, accountCreated: false, scanned: true };
}

import type { Deps } from '../composition.js';
import { addressProofMessages, type ConfirmAddressResponse, confirmAddressSchema } from '../domain/address-proof.contract.js';
import { auditIdSchema } from '../domain/audit.js';
import { parseContract } from '../domain/contract.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { mayScanAtOnce } from '../domain/scan-authorization.js';
import { siteKey } from '../domain/target.js';
import type { NotifyDeps } from './notifications.js';
import { refuseOptedOutScan } from './scan-opt-outs.js';
import { ensureAccount } from './submit-lead.js';
import { queueActiveRescan } from './unlock-scan.js';
import { checkVerificationCode, type RequestContext } from './verification-codes.js';

type ConfirmAddressDeps = Pick<Deps, 'audits' | 'scanJobs' | 'verifications' | 'rateLimits' | 'users' | 'scannerOptOuts' | 'setPasswordLinks'> & NotifyDeps;

/**
 * `POST /api/audits/{auditId}/confirm-address` (DECISIONS "Scan modes" [attacker]): a same-domain
 * lead's report, passive while its address is unproven, is rescanned active once the code mailed to
 * that address is confirmed — as an unlock is (queueActiveRescan: a new audit superseding the partial one). The code is the one bound to the
 * lead's own email and the audit's site, checked with POST /api/verification-codes/verify's limits
 * and attempts: the audit id alone proves nothing. Only then, when the lead asked for an account,
 * the account is created for the (now proven) address and the audit attached to it.
 */
export async function confirmAddress(deps: ConfirmAddressDeps, rawId: unknown, input: unknown, context: RequestContext): Promise<ConfirmAddressResponse> {
  const { verificationCode } = parseContract(confirmAddressSchema, input);
  const id = typeof rawId === 'string' ? rawId : '';
  const notPending = () => new NotFoundError('no_address_proof_pending', addressProofMessages.notPending);
  if (!auditIdSchema.safeParse(id).success) throw notPending();
  const audit = await deps.audits.getAudit(id);
  const lead = audit?.addressProof?.pending && audit.leadId ? await deps.audits.getLead(audit.leadId) : undefined;
  // Only a lead whose own address is at the site's domain has a proof to give (a foreign address proves the address only).
  if (!audit?.addressProof || !lead || !mayScanAtOnce(lead.email, audit.host)) throw notPending();
  // Before the code is checked, so waiting costs no attempt: the rescan needs the passive scan to have ended.
  if (audit.status === 'queued' || audit.status === 'in_progress') throw new ConflictError('audit_scan_running', addressProofMessages.running);

  await checkVerificationCode(deps, { email: lead.email, site: siteKey(audit.host) }, verificationCode, context);
  await refuseOptedOutScan(deps, audit.host);
  // The address is proven now: the account the lead asked for, attached to the report (an existing one is found).
  let accountCreated = false;
  let ownerId: string | undefined;
  if (audit.addressProof.createAccount && audit.ownerId === undefined) {
    const account = await ensureAccount(deps, lead);
    accountCreated = account.accountCreated;
    ownerId = account.userId;
    await deps.audits.attachOwner(audit.id, account.userId);
  }
  // The full scan is a new report (issue 29 item 6), the account's too; the partial one stays, linked to it.
  const next = await queueActiveRescan(deps, audit.id, 'Same-domain address proven: active scan queued as a new report', 'free', ownerId);
  return { auditId: next.id, status: 'queued', mode: 'active', accountCreated, message: addressProofMessages.started };
}

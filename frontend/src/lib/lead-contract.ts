/**
 * The lead form's contract, a second door to lambdas/domain kept apart from `contracts.ts`: it
 * carries libphonenumber's metadata (about 35 kB gzipped), so the form loads it with import()
 * when a visitor starts typing, and the landing page's first load does not pay for it. The verification
 * modal (itself loaded on demand, after the form's contract) reads its constants from here too.
 */
export { fieldMessages } from '../../../lambdas/domain/contract';
export {
  HONEYPOT_FIELD,
  leadInputSchema,
  leadMessages,
  summarizeLeadErrors,
  type LeadInput,
} from '../../../lambdas/domain/lead.contract';
export { attemptsRemainingText, VERIFICATION, verificationMessages, wrongCodeMessage } from '../../../lambdas/domain/verification.contract';

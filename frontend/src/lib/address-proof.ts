/**
 * DECISIONS "Scan modes" [attacker]: the texts about a same-domain address still to be proven, kept
 * apart from `contracts.ts` (no schema) so the lead form's chunk can use them.
 */
export { addressProofMessages } from '../../../lambdas/domain/address-proof-messages';

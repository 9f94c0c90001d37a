/**
 * DECISIONS "Scan modes": a verification proves control when it is made, not for ever (domains change
 * hands, agencies lose clients). Before a verified domain is relied on for an active scan, a proof last
 * seen more than this many days ago is looked for again (the same TXT record or file); gone, the
 * domain lapses to unverified and its owner is told. Shared with the frontend (no Node imports).
 */
export const DOMAIN_PROOF_RECHECK_DAYS = 30;

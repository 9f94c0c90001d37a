/**
 * The report's door to lambdas/domain, beside contracts.ts: the zod-free values the results page
 * needs to show the score and the findings (the limits, the coverage words, the finding groups).
 * Kept apart so the results page's first load carries no zod or libphonenumber: importing
 * contracts.ts evaluates every schema it re-exports (test/unit/results-first-load.test.ts holds it).
 * Types may still come from contracts.ts: a type import leaves no code.
 */
export { isAuditId } from '../../../lambdas/domain/audit-id';
export { isSampleAuditId } from '../../../lambdas/domain/sample-report';
export { gradeCapHeading } from '../../../lambdas/domain/grade-caps';
export { buildFindingGroups, groupCountsText } from '../../../lambdas/domain/finding-groups';
export { FACT_TONE_LABELS, protectionFacts } from '../../../lambdas/domain/protection-facts';
export { PARTIAL_SCORE_CAP, notCheckedByReason } from '../../../lambdas/domain/coverage';
export { unlockMessages } from '../../../lambdas/domain/unlock.contract';
export { isServerConfigExample, REMEDIATION_EFFORT_LABELS } from '../../../lambdas/domain/remediation-plan';

/**
 * The second door to lambdas/domain, beside contracts.ts: the zod-free modules the landing page
 * needs (the plan catalogue and the scoring formula), and the retention periods the legal pages state. Kept apart so the first bundle carries no zod
 * schemas — importing contracts.ts evaluates every schema it re-exports.
 */
export {
  checkoutMode,
  formatMoney,
  FREE_REPORT_NAME,
  formatPlanPrice,
  getPlan,
  lowestPrice,
  PLAN_GRANTS,
  reportProductName,
  reportProducts,
  type ReportProduct,
  plans,
  pricingTabs,
  type Plan,
  type PlanId,
  type PricingTabId,
} from '../../../lambdas/domain/plans';
export {
  auditsFigure,
  headlineFigures,
  measuredFigures,
  measurementFigure,
  MINIMUM_SAMPLE,
  scanFigures,
  type Figure,
  type Measurement,
  type PlatformStatsView,
} from '../../../lambdas/domain/platform-figures';
export { planComparison, type ComparisonCell, type ComparisonTable } from '../../../lambdas/domain/plan-comparison';
export { grade, riskLevel, riskScore } from '../../../lambdas/domain/scoring';
export type { Grade, RiskLevel, Severity } from '../../../lambdas/domain/audit';
export { LOG_RETENTION_DAYS, RETENTION_SECONDS } from '../../../lambdas/domain/retention';

/**
 * The one door from the frontend to the backend's shared code: the route manifest and the domain
 * contracts (DESIGN.md "Layout"). Nothing else under lambdas/ may be imported by the frontend.
 */
export { routePath, type RouteName } from '../../../lambdas/routes';
export {
  auditIdSchema,
  type Audit,
  type AuditStatus,
  type CheckResult,
  type CheckStatus,
  type Finding,
  type Grade,
  type RiskLevel,
  type Severity,
} from '../../../lambdas/domain/audit';

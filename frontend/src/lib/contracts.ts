/**
 * The one door from the frontend to the backend's shared code: the route manifest and the domain
 * contracts (DESIGN.md "Layout"). Nothing else under lambdas/ may be imported by the frontend, but
 * for a few narrow doors that keep this barrel (every schema here, zod and libphonenumber with
 * them) out of the landing page's first load (test/unit/landing-first-load.test.ts): lib/catalogue.ts
 * (plans, scoring) and lib/route-path.ts (routePath), both zod-free; lib/lead-contract.ts (loaded
 * on the lead form's first focus); lib/runtime-config.ts (the auth session chunk).
 */
export { routePath, type RouteName } from '../../../lambdas/routes';
export { DOMAIN_PROOF_RECHECK_DAYS } from '../../../lambdas/domain/domain-proof';
export {
  auditIdSchema,
  type Audit,
  type AuditStatus,
  type CheckResult,
  type CheckStatus,
  type Finding,
  type Grade,
  type GradeCap,
  type RiskLevel,
  type ScanMode,
  type Severity,
} from '../../../lambdas/domain/audit';
export {
  RESULT_LIST_LIMITS,
  type AuditResultView,
  type BreachesView,
  type CveView,
  type PortScanResultView,
  type RecommendationView,
  type TechnologyView,
  type VulnerabilityView,
} from '../../../lambdas/domain/audit-view';
export { gradeCapHeading } from '../../../lambdas/domain/grade-caps';
export { buildFindingGroups, type FindingGroupId, type FindingGroupsView, type FindingGroupView, groupCountsText } from '../../../lambdas/domain/finding-groups';
export type { FixAdviceView } from '../../../lambdas/domain/fix-advice';
export { type SiteAccessView } from '../../../lambdas/domain/site-access-view';
export { FACT_TONE_LABELS, protectionFacts, type FactTone, type ProtectionFact, type ProtectionGroup } from '../../../lambdas/domain/protection-facts';
export {
  PARTIAL_SCORE_CAP,
  notCheckedByReason,
  PASSIVE_REASON,
  type CoverageView,
  type NotCheckedCause,
  type NotCheckedGroup,
  type NotCheckedItem,
} from '../../../lambdas/domain/coverage';
export { unlockMessages, type UnlockResponse } from '../../../lambdas/domain/unlock.contract';
export { addressProofMessages, type ConfirmAddressPrompt, type ConfirmAddressResponse } from '../../../lambdas/domain/address-proof.contract';
export type { TwoStepStatus } from '../../../lambdas/domain/two-step.contract';
export type { OptOutConfirmView, OptOutRequestView, ScannerInfoView } from '../../../lambdas/domain/scanner.contract';
export {
  VERIFICATION,
  verificationMessages,
  wrongCodeMessage,
  type SendVerificationCodeInput,
  type SendVerificationCodeResponse,
  type VerifyCodeInput,
  type VerifyCodeResponse,
} from '../../../lambdas/domain/verification.contract';
export { reportEmailMessages, SHARE_LIFETIME_SECONDS, shareTokenSchema, type SharedAuditResponse, type SharedAuditView } from '../../../lambdas/domain/report.contract';
export {
  type DetectedProviderView,
  type FindingPlatformGuides,
  type IncludedPlatformGuides,
  type PlatformGuidesTeaser,
  type ProvidersView,
} from '../../../lambdas/domain/report-platform-fixes';
export { type PlatformGuideView } from '../../../lambdas/domain/platform-guides';
export {
  isServerConfigExample,
  REMEDIATION_EFFORT_LABELS,
  type RemediationEffort,
  type RemediationItemView,
  type RemediationPlanView,
  type RemediationStepView,
} from '../../../lambdas/domain/remediation-plan';
export { FREE_RESCAN_DAYS, freeRescanMessages, type FreeRescanResponse, type FreeRescanView } from '../../../lambdas/domain/free-rescan';
export { isSampleAuditId } from '../../../lambdas/domain/sample-report';
export { RUNTIME_CONFIG_PATH, runtimeConfigSchema, type RuntimeConfig } from '../../../lambdas/domain/runtime-config';
export {
  accountMessages,
  DEFAULT_NOTIFICATION_PREFERENCES,
  notificationPreferencesSchema,
  profileUpdateSchema,
  subscriptionStatuses,
  type AuditHistoryEntry,
  type NotificationPreferences,
  type ProfileUpdateInput,
  type SubscriptionStatus,
  type SubscriptionView,
  type UserView,
} from '../../../lambdas/domain/account.contract';
export { PASSWORD_POLICY, passwordMessages, passwordPolicyProblems } from '../../../lambdas/domain/password-policy';
export { setPasswordMessages, type SetPasswordInput, type SetPasswordResponse } from '../../../lambdas/domain/set-password.contract';
export {
  checkoutRequestSchema,
  paymentMessages,
  type BillingPortalResponse,
  type BillingView,
  type CheckoutRequest,
  type CheckoutSessionResponse,
  type InvoiceView,
  type OrderView,
} from '../../../lambdas/domain/payments.contract';
export {
  BADGE_DEFAULTS,
  BADGE_MAX_SCAN_AGE_DAYS,
  BADGE_MIN_SCORE,
  badgeDimensions,
  badgeEmbedCode,
  badgeSizes,
  badgeStyles,
  badgeThemes,
  badgeUrl,
  badgeHeadline,
  badgeReasons,
  badgeReasonsForVisitors,
  badgeStatusLines,
  badgeStatusOfView,
  BADGE_NO_GRADE,
  verifyUrl,
  type BadgeOptions,
} from '../../../lambdas/domain/badge';
export { type AlertsPage, type AlertView, type BadgeStatusView, type MyBadgeView } from '../../../lambdas/domain/monitoring.contract';
export { isHostName, siteKey } from '../../../lambdas/domain/target';
export {
  AGENT_DISCONNECT_AFTER_SECONDS,
  AGENT_SCHEDULE_SECONDS,
  AGENT_VERSION,
  OSQUERY_VERSION,
  RECENT_AGENT_REPORTS,
  agentMessages,
  agentName,
  agentPlatforms,
  agentReportSchema,
  installerDownloadPath,
  installerExtension,
  installerFileName,
  savedInstallerFileName,
  type AgentCisCheckView,
  type AgentDebugView,
  type AgentEnrollmentView,
  type AgentInstallerView,
  type AgentListView,
  type AgentPlatform,
  type AgentRecentReportView,
  type AgentReportInput,
  type AgentStatus,
  type AgentSummaryView,
  type AgentInstallEventView,
  type AgentInstallStep,
  type AgentView,
  type AgentVulnerabilitySeverity,
  type AgentVulnerabilityView,
  AGENT_VULNERABILITIES_LISTED,
} from '../../../lambdas/domain/agents.contract';
export { productSlug } from '../../../lambdas/domain/product';
export {
  DEFAULT_WAZUH_ENDPOINT,
  parseWazuhEndpoint,
  readWazuhItems,
  WAZUH_REQUIRED_PERMISSIONS,
  WAZUH_STATUS_ANALYSIS,
  WAZUH_TEST_TYPES,
  wazuhAgentName,
  wazuhErrorText,
  wazuhMessages,
  wazuhRequestUrl,
  wazuhTestPath,
  type WazuhAgentSummary,
  type WazuhRelayResponse,
  type WazuhTestResult,
  type WazuhTestType,
} from '../../../lambdas/domain/wazuh.contract';
export {
  alertDestinationMessages,
  createDestinationSchema,
  DESTINATION_EVENT_LABELS,
  DESTINATION_KIND_LABELS,
  DESTINATION_NAME_MAX,
  DESTINATION_URL_MAX,
  DISABLE_AFTER_ABANDONED,
  destinationEvents,
  destinationKinds,
  updateDestinationSchema,
  type CreateDestinationInput,
  type CreatedDestination,
  type DeliveryList,
  type DeliveryView,
  type DestinationEvent,
  type DestinationKind,
  type DestinationList,
  type DestinationView,
  type TestDelivery,
  type UpdateDestinationInput,
} from '../../../lambdas/domain/alert-destination.contract';
export {
  API_TOKEN_EXPIRY_CHOICES,
  API_TOKEN_NAME_MAX,
  apiTokenMessages,
  createApiTokenSchema,
  shownPrefix,
  type ApiTokenList,
  type ApiTokenView,
  type CreateApiTokenInput,
  type CreatedApiToken,
} from '../../../lambdas/domain/api-token.contract';
export {
  MAX_POLICIES_PER_USER,
  POLICY_MAX_DAYS,
  POLICY_REASON_LENGTH,
  policyActions,
  policyInputSchemaAt,
  policyMessages,
  type PoliciesPage,
  type PolicyAction,
  type PolicyInput,
  type PolicyReply,
  type SecurityPolicyView,
} from '../../../lambdas/domain/security-policy.contract';
export { monthLabel, type MonthlyReportsPage, type MonthlyReportView } from '../../../lambdas/domain/monthly-report.contract';
export { type TimeToFixAgeBucket, type TimeToFixIssueView, type TimeToFixMonth, type TimeToFixSummaryView } from '../../../lambdas/domain/time-to-fix.contract';
export {
  firstResponseTime,
  SUPPORT_CATEGORY_LABELS,
  SUPPORT_LIMITS,
  supportCategories,
  supportMessages,
  supportRequestSchema,
  type SupportCategory,
  type SupportEntitlementView,
  type SupportRequestCreated,
  type SupportRequestInput,
  type SupportRequestsPage,
  type SupportRequestView,
} from '../../../lambdas/domain/support.contract';
export {
  ESSENTIAL_EIGHT_DISCLAIMER,
  ESSENTIAL_EIGHT_STATUS_LABELS,
  essentialEightStrategyIds,
  type EssentialEightEvidence,
  type EssentialEightStatus,
  type EssentialEightStrategyId,
  type EssentialEightStrategyView,
  type EssentialEightView,
} from '../../../lambdas/domain/essential-eight.contract';
export {
  INVITATION_DAYS,
  INVITATION_ROLE_LABELS,
  invitationRoles,
  memberRoles,
  organisationMessages,
  ROLE_LABELS,
  roleAtLeast,
  type InvitationRole,
  type InvitationView,
  type MemberRole,
  type MemberView,
  type OrganisationView,
  type OrgRole,
} from '../../../lambdas/domain/organisation.contract';
export { type ClientOverview, type ProviderBranding, type ProviderOverview } from '../../../lambdas/domain/it-provider.contract';

import { DynamoDbAccessLog } from '../adapters/dynamodb-access-log.adapter.js';
import { DynamoDbAgents } from '../adapters/dynamodb-agents.adapter.js';
import { DynamoDbAccounts } from '../adapters/dynamodb-accounts.adapter.js';
import { DynamoDbApiTokens } from '../adapters/dynamodb-api-tokens.adapter.js';
import { DynamoDbAlertLog } from '../adapters/dynamodb-alerts.adapter.js';
import { DynamoDbAuditRepository } from '../adapters/dynamodb-audits.adapter.js';
import { DynamoDbBilling } from '../adapters/dynamodb-billing.adapter.js';
import { DynamoDbDomains } from '../adapters/dynamodb-domains.adapter.js';
import { DynamoDbIdempotencyStore } from '../adapters/dynamodb-idempotency.adapter.js';
import { DynamoDbIssueHistory } from '../adapters/dynamodb-issue-history.adapter.js';
import { DynamoDbMonitoring } from '../adapters/dynamodb-monitoring.adapter.js';
import { DynamoDbMonthlyReports } from '../adapters/dynamodb-monthly-reports.adapter.js';
import { DynamoDbAlertDestinations } from '../adapters/dynamodb-alert-destinations.adapter.js';
import { DynamoDbOrganisations } from '../adapters/dynamodb-organisations.adapter.js';
import { DynamoDbNotificationOutbox } from '../adapters/dynamodb-notifications.adapter.js';
import { DynamoDbRateLimiter } from '../adapters/dynamodb-rate-limits.adapter.js';
import { DynamoDbScannerOptOuts } from '../adapters/dynamodb-scanner-opt-outs.adapter.js';
import { DynamoDbShareLinks } from '../adapters/dynamodb-shares.adapter.js';
import { DynamoDbSigningKeys } from '../adapters/dynamodb-signing-keys.adapter.js';
import { DynamoDbSecurityPolicies } from '../adapters/dynamodb-policies.adapter.js';
import { DynamoDbSetPasswordLinks } from '../adapters/dynamodb-set-password-links.adapter.js';
import { DynamoDbPlatformStats } from '../adapters/dynamodb-stats.adapter.js';
import { DynamoDbSupportRequests } from '../adapters/dynamodb-support-requests.adapter.js';
import { DynamoDbEmailVerifications } from '../adapters/dynamodb-verifications.adapter.js';
import { required } from '../config.js';
import { documentClient } from './aws.js';
import type { Provider } from './core.js';

/** The one table's repositories. */
export const provide: Provider = ({ config, clock }) => {
  const client = () => documentClient(config);
  const table = () => required(config, 'TABLE_NAME');
  return {
    audits: () => new DynamoDbAuditRepository(client(), table(), clock),
    accounts: () => new DynamoDbAccounts(client(), table(), clock),
    rateLimits: () => new DynamoDbRateLimiter(client(), table(), clock),
    verifications: () => new DynamoDbEmailVerifications(client(), table(), clock),
    idempotency: () => new DynamoDbIdempotencyStore(client(), table(), clock),
    shares: () => new DynamoDbShareLinks(client(), table(), clock),
    domains: () => new DynamoDbDomains(client(), table()),
    policies: () => new DynamoDbSecurityPolicies(client(), table(), clock),
    stats: () => new DynamoDbPlatformStats(client(), table()),
    billing: () => new DynamoDbBilling(client(), table(), clock),
    monitoring: () => new DynamoDbMonitoring(client(), table()),
    issueHistory: () => new DynamoDbIssueHistory(client(), table(), clock),
    alerts: () => new DynamoDbAlertLog(client(), table(), clock),
    signingKeys: () => new DynamoDbSigningKeys(client(), table()),
    agents: () => new DynamoDbAgents(client(), table(), clock),
    monthlyReports: () => new DynamoDbMonthlyReports(client(), table(), clock),
    supportRequests: () => new DynamoDbSupportRequests(client(), table(), clock),
    apiTokens: () => new DynamoDbApiTokens(client(), table(), clock),
    notifications: () => new DynamoDbNotificationOutbox(client(), table()),
    alertDestinations: () => new DynamoDbAlertDestinations(client(), table(), clock),
    organisations: () => new DynamoDbOrganisations(client(), table()),
    accessLog: () => new DynamoDbAccessLog(client(), table(), clock),
    scannerOptOuts: () => new DynamoDbScannerOptOuts(client(), table(), clock),
    setPasswordLinks: () => new DynamoDbSetPasswordLinks(client(), table()),
  };
};

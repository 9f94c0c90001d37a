/**
 * `npm run kev:check`: checks the software every monitored domain's latest audit saw against the
 * bundled knowledge base now, and alerts newly known-exploited CVEs (each once, like a rescan would).
 * The monitoring scheduler does this by itself once per new knowledge base; this is for running it
 * by hand, e.g. right after `npm run build:vulndb` against a deployed table. Configuration as a
 * Lambda reads it (README "Configuration"): TABLE_NAME, MAIL_FROM, SMS_MODE and AWS credentials, or
 * the emulators' *_ENDPOINT keys. Prints the counts as JSON; exit code 1 when it could not run.
 */
import { buildDeps } from '../lambdas/composition.js';
import { loadConfig } from '../lambdas/config.js';
import { matchVulnerabilities } from '../lambdas/scanner/vulndb/index.js';
import { checkKevUpdates } from '../lambdas/use-cases/monitoring.js';

try {
  const deps = buildDeps(loadConfig(process.env, ['table', 'mailer', 'sms']));
  const result = await checkKevUpdates(deps, matchVulnerabilities);
  console.log(JSON.stringify(result));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}

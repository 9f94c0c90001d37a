import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeFrontendBuild, removeTempDirs, synthProduct, TEST_DEPLOY_ENV } from './synth.js';

/**
 * cfn-lint rules not applied, each with its reason. Every other rule runs; its warnings are printed,
 * its errors fail the test.
 */
const IGNORED_RULES: Record<string, string> = {
  W3005:
    "CDK's Function gives itself a DependsOn on its role (and the role's default policy, so the grants exist before the first invocation) besides the GetAtt of the role's ARN; the role half is redundant and harmless, and it is CDK's to drop, not ours.",
};

interface CfnLintMatch {
  Level: 'Error' | 'Warning' | 'Informational';
  Message: string;
  Rule: { Id: string };
  Location: { Path?: (string | number)[] };
}

const cfnLint = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
const available = !cfnLint.error && cfnLint.status === 0;
if (!available) console.log('cfn-lint not found on PATH (pip install cfn-lint): the template lint is skipped');

const workDir = mkdtempSync(path.join(tmpdir(), 'rampart-cfn-lint-'));
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  removeTempDirs();
});

describe.skipIf(!available)('cfn-lint on the synthesized template', () => {
  it('finds no error in the stack with every optional part (site build, custom domain, alarm email, Stripe and HIBP parameters, fixed scanner egress)', () => {
    // Prepare: the real synth (bundled functions, the site deployment), with every setting that adds resources.
    const { template } = synthProduct({
      frontendDist: fakeFrontendBuild(),
      env: {
        ALARM_EMAIL: 'ops@rampart-test.com',
        STRIPE_PARAMETER_PATH: '/rampart/stripe',
        HIBP_PARAMETER: '/rampart/hibp-api-key',
        SCANNER_EGRESS: 'fixed',
        SITE_DOMAIN: 'app.rampart-test.com',
        SITE_CERTIFICATE_ARN: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
      },
    });
    const file = path.join(workDir, 'template.json');
    writeFileSync(file, JSON.stringify(template.toJSON()));

    // Act
    const run = spawnSync(
      'cfn-lint',
      ['--format', 'json', '--regions', TEST_DEPLOY_ENV.AWS_REGION, '--ignore-checks', ...Object.keys(IGNORED_RULES), '--', file],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );

    // Assess: exit codes 0 (clean), 4 (warnings), 8 (informational) and their sums carry JSON; anything else is cfn-lint failing.
    expect(run.error).toBeUndefined();
    expect(run.stderr, 'cfn-lint ran').not.toMatch(/Traceback|usage:/);
    const matches = JSON.parse(run.stdout || '[]') as CfnLintMatch[];
    const line = (m: CfnLintMatch) => `${m.Rule.Id} ${(m.Location.Path ?? []).join('/')}: ${m.Message}`;
    const warnings = matches.filter((m) => m.Level !== 'Error');
    if (warnings.length > 0) console.log(`cfn-lint warnings (${warnings.length}):\n${warnings.map(line).join('\n')}`);
    expect(matches.filter((m) => m.Level === 'Error').map(line)).toEqual([]);
  });
});

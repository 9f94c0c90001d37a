import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromRoot } from '../../lib/paths.js';
import { DEPLOY_REGIONS } from '../../lib/stack-config.js';
import { fakeFrontendBuild, removeTempDirs, synthProduct } from './synth.js';

/**
 * cfn-lint rules not applied, each with its reason. Every other rule runs; its warnings are printed,
 * its errors fail the test.
 */
const IGNORED_RULES: Record<string, string> = {
  W3005:
    "CDK's Function gives itself a DependsOn on its role (and the role's default policy, so the grants exist before the first invocation) besides the GetAtt of the role's ARN; the role half is redundant and harmless, and it is CDK's to drop, not ours.",
};

/**
 * Rules that found something once and were resolved in the stack (kept here so the decision has its
 * reason; the lint below fails if they come back):
 * - E3002 `Tags` on AWS::CloudWatch::Dashboard, us-east-1 only: CloudFormation's schema there has no
 *   Tags for dashboards, so a deploy to us-east-1 would fail. The stack-wide `product` tag skips the
 *   dashboard (lib/product-stack.ts).
 */
const RESOLVED_RULES = ['E3002'] as const;

/**
 * Every region an operator may choose (lib/stack-config.ts DEPLOY_REGIONS, listed in README "Deploy
 * to AWS"), and us-east-1: cfn-lint's default and the region of CloudFront and its certificate.
 */
const LINT_REGIONS = [...new Set([...DEPLOY_REGIONS, 'us-east-1'])];

/** The version CI requires (.ci/run checks the machine has it; .ci/cfn-lint-requirements.txt): the rules above were decided with it. */
const PINNED_VERSION = /^cfn-lint==(\S+)$/m.exec(readFileSync(fromRoot('.ci/cfn-lint-requirements.txt'), 'utf8'))?.[1];

interface CfnLintMatch {
  Level: 'Error' | 'Warning' | 'Informational';
  Message: string;
  Rule: { Id: string };
  Location: { Path?: (string | number)[] };
}

const cfnLint = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
const available = !cfnLint.error && cfnLint.status === 0;
// CI sets CFN_LINT_REQUIRED once it has installed the pinned cfn-lint (.ci/run): there a missing one fails.
const skip = !available && process.env.CFN_LINT_REQUIRED !== '1';
if (skip) console.log('cfn-lint not found on PATH (pip install --no-deps -r .ci/cfn-lint-requirements.txt): the template lint is skipped');

const workDir = mkdtempSync(path.join(tmpdir(), 'rampart-cfn-lint-'));
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  removeTempDirs();
});

describe.skipIf(skip)('cfn-lint on the synthesized template', () => {
  it('is the version CI pins (.ci/cfn-lint-requirements.txt), whose rules and schemas the decisions here were made with', () => {
    expect(PINNED_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(cfnLint.error, 'cfn-lint on PATH').toBeUndefined();
    expect(cfnLint.stdout.trim(), 'pip install --no-deps -r .ci/cfn-lint-requirements.txt').toBe(`cfn-lint ${PINNED_VERSION}`);
  });

  it('lints for every region README "Deploy to AWS" offers, and us-east-1', () => {
    const section = readFileSync(fromRoot('README.md'), 'utf8').split(/^## Deploy to AWS$/m)[1]?.split(/^## /m)[0] ?? '';
    const listed = /^Regions:(.*)$/m.exec(section)?.[1] ?? '';
    expect([...listed.matchAll(/`([a-z]{2}(?:-[a-z]+)+-\d)`/g)].map((m) => m[1])).toEqual([...DEPLOY_REGIONS]);
    expect(LINT_REGIONS).toContain('us-east-1');
    expect(LINT_REGIONS).toContain('ap-southeast-2');
  });

  it('finds no error in any of those regions in the stack with every optional part (site build, custom domain, alarm email, Stripe and HIBP parameters, fixed scanner egress)', () => {
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
      ['--format', 'json', '--regions', ...LINT_REGIONS, '--ignore-checks', ...Object.keys(IGNORED_RULES), '--', file],
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
    expect(matches.map((m) => m.Rule.Id).filter((id) => (RESOLVED_RULES as readonly string[]).includes(id))).toEqual([]);
  }, 300_000); // synth, then one cfn-lint run over every region: about 75 s on two busy cores
});

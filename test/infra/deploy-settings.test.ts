import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import { CfnDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Policy } from 'aws-cdk-lib/aws-iam';
import { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../lib/app.js';
import { type DeployKey, deployDecisions } from '../../lib/deploy-settings.js';
import { TABLE_KEYS } from '../../lib/data/data.js';
import { fromRoot } from '../../lib/paths.js';
import { knownContextKeys, readStackConfig, stackSettingSources } from '../../lib/stack-config.js';
import { cdkJsonContext, TEST_DEPLOY_ENV } from './synth.js';

/** The keys of the README's configuration table, one entry per row (a row may name several keys). */
function readmeConfigurationRows(): { keys: string[]; text: string }[] {
  const readme = readFileSync(fromRoot('README.md'), 'utf8');
  const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [first = ''] = line.split(' | ');
      return { keys: [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!), text: line };
    });
}

const rows = readmeConfigurationRows();
const readmeKeys = rows.flatMap((row) => row.keys);
const rowOf = (key: string) => rows.find((row) => row.keys.includes(key))!.text;
const decided = (key: string): key is DeployKey => key in deployDecisions;
const keysOfKind = (kind: string) => readmeKeys.filter((key) => decided(key) && deployDecisions[key].kind === kind) as DeployKey[];

/** A valid value for every plain setting (lambdas/config.ts's schema must accept it). */
const sampleSettings: Record<string, string> = {
  SUPPORT_EMAIL: 'help@bastion-security.com',
  SCANNER_ABUSE_EMAIL: 'abuse@bastion-security.com',
  SMS_COUNTRIES: 'AU,NZ',
  SCAN_RESOLVERS: '1.1.1.1,[2606:4700:4700::1111]:53',
  SCAN_DNS_TIMEOUT_MS: '3000',
  SCAN_TOP_PORTS: '200',
  SCAN_EXCLUDE_PORTS: '25,2024',
  SCAN_CT_URL: 'https://crt.sh/',
  SCAN_DNSSEC_TRUST_ANCHORS: '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D; . IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16',
  HIBP_BASE_URL: 'https://haveibeenpwned.com/api/v3',
  HIBP_REQUESTS_PER_MINUTE: '50',
  PWNED_PASSWORDS_URL: 'https://api.pwnedpasswords.com',
  RATE_LIMIT_LEADS_PER_IP: '11',
  RATE_LIMIT_LEADS_PER_EMAIL: '6',
  RATE_LIMIT_LEADS_PER_SITE: '7',
  RATE_LIMIT_CODES_PER_IP: '12',
  RATE_LIMIT_CODES_PER_EMAIL: '8',
  RATE_LIMIT_CODE_CHECKS_PER_IP: '31',
  RATE_LIMIT_REPORT_EMAILS_PER_AUDIT: '9',
  RATE_LIMIT_REPORT_EMAILS_PER_RECIPIENT: '13',
  RATE_LIMIT_REPORT_EMAILS_PER_IP: '14',
  RATE_LIMIT_SHARES_PER_AUDIT: '21',
  MAIL_SENDS_PER_HOUR_LIMIT: '2001',
  RATE_LIMIT_SUPPORT_REQUESTS_PER_USER: '4',
  RATE_LIMIT_AGENT_REPORTS_PER_AGENT: '61',
  RATE_LIMIT_AGENT_REGISTRATIONS_PER_ACCOUNT: '32',
  RATE_LIMIT_AGENT_TELEMETRY_PER_ACCOUNT: '121',
  API_TOKEN_REQUESTS_PER_MINUTE: '90',
  SHARE_MAX_USES: '50',
  SCAN_ACTIVE_PER_TARGET_PER_HOUR: '7',
};

/**
 * Builds the product stack without bundling or synth (fast; the construct tree is what the template
 * is made from) and returns each of the product's functions with its resolved environment.
 */
function buildStack(context: Record<string, unknown>, env: Record<string, string> = {}) {
  const { stack } = createApp({
    nag: false,
    env: { ...TEST_DEPLOY_ENV, ...env },
    frontendDist: null,
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context },
  });
  const functions = stack.node
    .findAll()
    .filter((c): c is LambdaFunction => c instanceof LambdaFunction)
    .map((fn) => {
      const resolved = stack.resolve((fn.node.defaultChild as CfnFunction).environment) as { variables?: Record<string, unknown> } | undefined;
      return { fn, path: fn.node.path, env: resolved?.variables ?? {} };
    })
    .filter((f) => 'POWERTOOLS_SERVICE_NAME' in f.env);
  return { stack, functions };
}

const refuse = (key: string, value: string) => () =>
  readStackConfig(new App({ context: { [key]: value } }).node, TEST_DEPLOY_ENV);

describe('deploy settings: every key of the README configuration table', () => {
  it('is read from the README table (the parse found its rows)', () => {
    expect(readmeKeys.length).toBeGreaterThanOrEqual(45);
    expect(readmeKeys).toContain('SCAN_RESOLVERS');
    expect(readmeKeys).toContain('COGNITO_ENDPOINT');
  });

  it('has a decision for a deploy: a setting, set by the stack, a secret by parameter, or refused (lib/deploy-settings.ts)', () => {
    expect(readmeKeys.filter((key) => !decided(key))).toEqual([]);
  });

  it('says in the README how a deploy sets it, or that it is refused and why', () => {
    const undocumented = readmeKeys.filter((key) => {
      const decision = deployDecisions[key as DeployKey];
      const text = rowOf(key);
      switch (decision.kind) {
        case 'setting':
          return false;
        case 'stack-setting':
          return !text.includes(`-c ${decision.setting}`);
        case 'stack':
          return !/set by the (CDK )?stack/.test(text);
        case 'secret':
          return !text.includes(`-c ${decision.parameter}`);
        case 'local':
          return !text.includes('refused for a deploy');
      }
    });
    expect(undocumented).toEqual([]);
  });

  it('as a setting, reaches every function under its own name, from context or from the environment at synth', () => {
    // Prepare
    const settings = keysOfKind('setting');
    expect(settings.filter((key) => !(key in sampleSettings)), 'a sample value for each setting').toEqual([]);
    const fromEnvironment = ['SCAN_RESOLVERS', 'HIBP_REQUESTS_PER_MINUTE'];
    const context = Object.fromEntries(settings.filter((k) => !fromEnvironment.includes(k)).map((k) => [k, sampleSettings[k]]));
    const env = Object.fromEntries(fromEnvironment.map((k) => [k, sampleSettings[k]!]));

    // Act
    const { functions } = buildStack({ ...context, PRODUCT_NAME: 'Bastion', LOG_LEVEL: 'WARN' }, env);

    // Assess
    expect(functions.length).toBeGreaterThanOrEqual(5);
    for (const { path, env: fnEnv } of functions) {
      for (const key of settings) expect(fnEnv[key], `${key} on ${path}`).toBe(sampleSettings[key]);
      expect(fnEnv).toMatchObject({ PRODUCT_NAME: 'Bastion', LOG_LEVEL: 'WARN' });
    }
    expect(functions.filter((f) => f.env.MAIL_FROM === TEST_DEPLOY_ENV.MAIL_FROM).length).toBeGreaterThan(0);
  });

  it('as a setting, is validated by the Lambdas’ own schema at synth, naming the key', () => {
    expect(refuse('SCAN_TOP_PORTS', '0')).toThrow(/SCAN_TOP_PORTS: /);
    expect(refuse('SCAN_EXCLUDE_PORTS', 'smtp')).toThrow(/SCAN_EXCLUDE_PORTS: must be a comma-separated list of port numbers/);
    expect(refuse('SCAN_DNSSEC_TRUST_ANCHORS', '. IN DNSKEY 257 3 8 AwEAAa')).toThrow(/SCAN_DNSSEC_TRUST_ANCHORS: must be DS records separated by ";"/);
    expect(refuse('SUPPORT_EMAIL', 'help')).toThrow(/SUPPORT_EMAIL: /);
    expect(() => readStackConfig(new App().node, { ...TEST_DEPLOY_ENV, SCAN_CT_URL: 'crt.sh' })).toThrow(/SCAN_CT_URL: /);
  });

  it('when local-only, set by the stack or a secret, is refused for a deploy naming it and what to do instead', () => {
    for (const key of keysOfKind('local')) {
      const { reason } = deployDecisions[key] as { reason: string };
      expect(refuse(key, '1'), key).toThrow(`${key}: refused for a deploy, ${reason}; unset it`);
      expect(() => readStackConfig(new App().node, { ...TEST_DEPLOY_ENV, [key]: '1' }), `${key} from the environment`).toThrow(`${key}: refused`);
    }
    for (const key of keysOfKind('stack')) expect(refuse(key, 'x'), key).toThrow(`${key}: set by the stack from`);
    for (const key of keysOfKind('secret')) {
      const { parameter } = deployDecisions[key] as { parameter: string };
      expect(refuse(key, 'sk_live_abc'), key).toThrow(`${key}: a secret never goes in the template; put it in an SSM SecureString parameter and give -c ${parameter}`);
    }
  });

  it('as a secret, reaches only the functions that need it, as a parameter name with ssm:GetParameters on that one parameter', () => {
    // Act
    const { stack, functions } = buildStack({ hibpParameter: '/rampart/hibp-api-key', stripeParameterPath: '/rampart/stripe' });

    // Assess
    const withHibp = functions.filter((f) => 'HIBP_API_KEY_PARAMETER' in f.env);
    expect(withHibp.map((f) => f.path)).toEqual([expect.stringMatching(/ScanWorker/)]);
    expect(withHibp[0]!.env.HIBP_API_KEY_PARAMETER).toBe('/rampart/hibp-api-key');
    const policy = stack.resolve((withHibp[0]!.fn.role!.node.tryFindChild('DefaultPolicy') as Policy).document.toJSON()) as {
      Statement: { Action: string | string[]; Resource: unknown }[];
    };
    const ssm = policy.Statement.filter((s) => [s.Action].flat().some((a) => a.startsWith('ssm:')));
    expect(ssm).toHaveLength(1);
    expect(ssm[0]!.Action).toBe('ssm:GetParameters');
    expect(JSON.stringify(ssm[0]!.Resource)).toBe('{"Fn::Join":["",["arn:aws:ssm:ap-southeast-2:",{"Ref":"AWS::AccountId"},":parameter/rampart/hibp-api-key"]]}');
    const withStripe = functions.filter((f) => 'STRIPE_SECRET_KEY_PARAMETER' in f.env);
    expect(withStripe.length).toBeGreaterThan(0);
    for (const f of withStripe) expect(f.env).toMatchObject({ STRIPE_SECRET_KEY_PARAMETER: '/rampart/stripe/secret-key', STRIPE_WEBHOOK_SECRET_PARAMETER: '/rampart/stripe/webhook-secret', PAYMENTS_MODE: 'stripe' });
    for (const { env } of functions) for (const key of keysOfKind('secret')) expect(env).not.toHaveProperty(key);
  });

  it('when set by the stack, is set on the functions that need it', () => {
    // scannerEgress: SCANNER_EGRESS_ADDRESSES exists only with the fixed egress on.
    const { functions } = buildStack({ hibpParameter: '/rampart/hibp-api-key', stripeParameterPath: '/rampart/stripe', scannerEgress: 'fixed' });
    const unset = keysOfKind('stack').filter((key) => !functions.some((f) => key in f.env));
    expect(unset).toEqual([]);
    expect(Stack.of(functions[0]!.fn).region).toBe('ap-southeast-2');
  });
});

describe('deploy settings: context keys and the certificate, refused at synth', () => {
  const problemsOf = (context: Record<string, unknown>, env: Record<string, string> = TEST_DEPLOY_ENV) => {
    try {
      readStackConfig(new App({ context }).node, env);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses a misspelt or unknown context key, naming the setting it meant', () => {
    expect(problemsOf({ alarmemail: 'ops@rampart-test.com' })).toContain('alarmemail: not a setting (did you mean alarmEmail?)');
    expect(problemsOf({ 'site-domain': 'app.rampart-test.com' })).toContain('site-domain: not a setting (did you mean siteDomain?)');
    expect(problemsOf({ scan_top_ports: '100' })).toContain('scan_top_ports: not a setting (did you mean SCAN_TOP_PORTS?)');
    expect(problemsOf({ wafEnabledd: 'true' })).toMatch(/wafEnabledd: not a setting; the settings are in bin\/app\.ts/);
  });

  it('knows every stack setting of the schema (under its name and its variable\'s) and every README key, so settings added there are accepted', () => {
    const known = [...Object.entries(stackSettingSources).flat(), ...Object.keys(deployDecisions)];
    expect(known).toEqual(expect.arrayContaining(['region', 'AWS_REGION', 'alarmEmail', 'ALARM_EMAIL', 'certificateArn', 'SCAN_TOP_PORTS']));
    expect([...knownContextKeys()].sort()).toEqual([...new Set(known)].sort());
    for (const key of known) expect(problemsOf({ [key]: 'x' }), key).not.toContain(`${key}: not a setting`);
  });

  it("accepts CDK's own context: cdk.json's feature flags and telemetry switch, the CLI's keys, cached lookups", () => {
    const context = {
      ...cdkJsonContext(),
      'aws:cdk:bundling-stacks': [],
      'aws:cdk:enable-path-metadata': true,
      'availability-zones:account=123456789012:region=ap-southeast-2': ['ap-southeast-2a', 'ap-southeast-2b'],
      'acknowledged-issue-numbers': [32775],
    };
    expect(problemsOf(context)).toBe('');
  });

  it('refuses a region the stack is not linted for (README "Deploy to AWS" lists them), naming the ones it is', () => {
    expect(problemsOf({}, { ...TEST_DEPLOY_ENV, AWS_REGION: 'ap-east-2' })).toContain('region: ap-east-2 is not a region this stack is checked for');
    expect(problemsOf({ region: 'mx-central-1' })).toMatch(/one of ap-southeast-2, .*us-east-1/);
    expect(problemsOf({ region: 'eu-west-1' })).toBe('');
  });

  it('refuses a certificate outside us-east-1 (CloudFront takes only those), naming its region', () => {
    const site = { siteDomain: 'app.rampart-test.com' };
    expect(problemsOf({ ...site, certificateArn: 'arn:aws:acm:ap-southeast-2:123456789012:certificate/0f0e0d0c-0000-4000-8000-000000000000' })).toContain(
      'certificateArn: CloudFront takes only an ACM certificate in us-east-1; this one is in ap-southeast-2',
    );
    expect(problemsOf({ ...site }, { ...TEST_DEPLOY_ENV, SITE_CERTIFICATE_ARN: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' })).toContain('this one is in eu-west-1');
    expect(problemsOf({ ...site, certificateArn: 'arn:aws:iam::123456789012:server-certificate/site' })).toContain('certificateArn: an ACM certificate ARN');
    expect(problemsOf({ ...site, certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-0000-4000-8000-000000000000' })).toBe('');
  });
});

describe('deploy settings: a secret rotation that takes effect', () => {
  const ORIGIN_VERSION = 'a1b2c3d4-0000-4000-8000-00000000abcd';
  const distributionConfig = (stack: Stack) => {
    const distribution = stack.node.findAll().find((c): c is CfnDistribution => c instanceof CfnDistribution)!;
    return JSON.stringify(stack.resolve(distribution.distributionConfig));
  };

  it('secretsVersion reaches every function as SECRETS_VERSION, so a new label is a configuration change that starts instances reading the parameters afresh', () => {
    const before = buildStack({ stripeParameterPath: '/rampart/stripe', hibpParameter: '/rampart/hibp-api-key' }).functions;
    const after = buildStack({ stripeParameterPath: '/rampart/stripe', hibpParameter: '/rampart/hibp-api-key', secretsVersion: '2026-12-07' }).functions;
    expect(before.filter((f) => 'SECRETS_VERSION' in f.env)).toEqual([]);
    expect(after.length).toBe(before.length);
    for (const f of after) expect(f.env.SECRETS_VERSION, f.path).toBe('2026-12-07');
    // The parameter readers are among them: the Stripe functions and the scan worker.
    expect(after.filter((f) => 'STRIPE_SECRET_KEY_PARAMETER' in f.env || 'HIBP_API_KEY_PARAMETER' in f.env).every((f) => f.env.SECRETS_VERSION === '2026-12-07')).toBe(true);
    expect(() => buildStack({ secretsVersion: 'next week' })).toThrow(/secretsVersion: a label/);
  });

  it('originVerifyVersion pins the origin secret reference, in the distribution and every API function alike (a new version changes both)', () => {
    // Prepare / Act
    const current = buildStack({});
    const rotated = buildStack({ originVerifyVersion: ORIGIN_VERSION });

    // Assess: without a version the reference has none; with it, both the header and the functions name it
    const originOf = (f: { env: Record<string, unknown> }) => JSON.stringify(f.env.ORIGIN_VERIFY_SECRET);
    const apiFunctions = rotated.functions.filter((f) => 'ORIGIN_VERIFY_SECRET' in f.env);
    expect(apiFunctions.length).toBeGreaterThanOrEqual(5);
    for (const f of apiFunctions) expect(originOf(f), f.path).toContain(`:SecretString:::${ORIGIN_VERSION}}}`);
    expect(distributionConfig(rotated.stack)).toContain(`:SecretString:::${ORIGIN_VERSION}}}`);
    expect(distributionConfig(current.stack)).toContain('{{resolve:secretsmanager:');
    expect(distributionConfig(current.stack)).not.toContain(ORIGIN_VERSION);
    for (const f of current.functions.filter((fn) => 'ORIGIN_VERIFY_SECRET' in fn.env)) expect(originOf(f)).toContain(':SecretString:::}}');
    expect(() => buildStack({ originVerifyVersion: 'AWSCURRENT' })).toThrow(/originVerifyVersion: a Secrets Manager VersionId/);
  });
});

/** The section "Deploy to AWS" of the README, and its shell blocks joined (continuation lines folded). */
function readmeDeploySection(): { section: string; shell: string[] } {
  const readme = readFileSync(fromRoot('README.md'), 'utf8');
  const section = readme.split(/^## Deploy to AWS$/m)[1]?.split(/^## /m)[0] ?? '';
  const shell = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n').replace(/\\\n\s*/g, ' ');
  return { section, shell: shell.split('\n') };
}

interface DeployCommand {
  readonly kind: 'diff' | 'deploy';
  readonly command: string;
  /** The line of the joined shell it is on (its order among the README's commands). */
  readonly line: number;
  readonly context: Record<string, string>;
  /** The variables set in the shell at that point: exported, or sourced from deploy.env. */
  readonly env: Record<string, string>;
}

/**
 * The shell of README "Deploy to AWS", run as an operator would, in order: `deploy.env` written by
 * its heredoc and appended to by `echo "KEY=value" >> deploy.env`, loaded by `. ./deploy.env`, and
 * each `npx cdk diff` / `npx cdk deploy` with the variables set at that point and any `-c` it names.
 */
function readmeDeployCommands(): { commands: DeployCommand[]; deployEnvFirst: string[]; appended: string[] } {
  const { shell } = readmeDeploySection();
  // Values an operator gets from a command's output in the README.
  const outputs: Record<string, string> = {
    CERT: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
    ORIGIN_VERSION: 'a1b2c3d4-0000-4000-8000-00000000abcd',
  };
  const env: Record<string, string> = {};
  let file: [string, string][] = [];
  let deployEnvFirst: string[] = [];
  const appended: string[] = [];
  const commands: DeployCommand[] = [];
  const expand = (value: string) =>
    value
      .replace(/\$\(date [^)]*\)/g, '20261207T093000Z')
      .replace(/\$\{?([A-Z_]+)\}?/g, (_, name: string) => {
        const known = env[name] ?? outputs[name];
        if (known === undefined) throw new Error(`README "Deploy to AWS" uses $${name} before setting it`);
        return known;
      });
  for (let i = 0; i < shell.length; i++) {
    const line = shell[i]!.replace(/\s+#.*$/, '').trim();
    if (/^cat > deploy\.env <<'EOF'$/.test(line)) {
      file = [];
      for (i++; shell[i] !== 'EOF'; i++) {
        const [, key, value] = /^([A-Z_]+)=(.*)$/.exec(shell[i]!) ?? [];
        if (!key) throw new Error(`deploy.env line "${shell[i]}" is not KEY=value`);
        file.push([key, value!]);
      }
      deployEnvFirst = file.map(([key]) => key);
      continue;
    }
    for (const [, key, value] of line.matchAll(/echo "([A-Z_]+)=([^"]*)" >> deploy\.env/g)) {
      file.push([key!, expand(value!)]);
      appended.push(key!);
    }
    if (line.includes('. ./deploy.env')) for (const [key, value] of file) env[key] = value;
    if (line.startsWith('export ')) for (const [, name, value] of line.matchAll(/([A-Z_]+)=(\S+)/g)) env[name!] = expand(value!);
    for (const segment of line.split(/&&|;|\bthen\b|\belse\b/).map((s) => s.trim())) {
      const kind = segment.startsWith('npx cdk deploy') ? 'deploy' : segment.startsWith('npx cdk diff') ? 'diff' : undefined;
      if (!kind) continue;
      const context = Object.fromEntries([...segment.matchAll(/-c ([A-Za-z_]+)=("[^"]*"|\S+)/g)].map(([, key, value]) => [key!, expand(value!.replace(/^"|"$/g, ''))]));
      commands.push({ kind, command: segment, line: i, context, env: { ...env } });
    }
  }
  return { commands, deployEnvFirst, appended };
}

/** The first line of the README's shell that contains `text` (-1 when none). */
const lineOf = (text: string | RegExp) => readmeDeploySection().shell.findIndex((line) => (typeof text === 'string' ? line.includes(text) : text.test(line)));

describe('README "Deploy to AWS"', () => {
  const { commands, deployEnvFirst, appended } = readmeDeployCommands();
  const deploys = commands.filter((c) => c.kind === 'deploy');
  const settingsOf = ({ context, env }: DeployCommand) => readStackConfig(new App({ context }).node, env);

  it('deploys first with the region, mailFrom, alarmEmail, SUPPORT_EMAIL and Cognito\'s own sender, all from deploy.env', () => {
    expect(deploys.length).toBeGreaterThanOrEqual(5);
    const first = settingsOf(deploys[0]!);
    expect(first).toMatchObject({ region: 'ap-southeast-2', mailFrom: expect.any(String), alarmEmail: expect.any(String), userPoolEmail: 'cognito' });
    expect(first.environment.SUPPORT_EMAIL).toMatch(/^[^@]+@your-domain\.com\.au$/);
    expect(first.environment.SUPPORT_EMAIL!.split('@')[1]).not.toBe(first.mailDomain);
  });

  it('lists the whole deploy.env before the first deploy: its first lines, and every key a later step appends', () => {
    const { section } = readmeDeploySection();
    expect(deployEnvFirst).toEqual(['AWS_REGION', 'MAIL_FROM', 'SUPPORT_EMAIL', 'ALARM_EMAIL', 'USER_POOL_EMAIL']);
    const listed = section.split('# Later steps append')[1]?.split('```')[0] ?? '';
    for (const key of new Set(appended)) expect(listed, key).toMatch(new RegExp(`^#\\s+${key}=`, 'm'));
    expect(appended).toEqual(expect.arrayContaining(['USER_POOL_EMAIL', 'SITE_DOMAIN', 'SITE_CERTIFICATE_ARN', 'STRIPE_PARAMETER_PATH', 'HIBP_PARAMETER', 'SECRETS_VERSION', 'ORIGIN_VERIFY_VERSION']));
  });

  it('gives every deploy command settings synth accepts (no placeholder, nothing refused or unknown)', () => {
    for (const command of commands) expect(() => settingsOf(command), command.command).not.toThrow();
    const last = deploys.at(-1)!;
    expect(last.env).toMatchObject({ STRIPE_PARAMETER_PATH: '/rampart/stripe', HIBP_PARAMETER: '/rampart/hibp-api-key', USER_POOL_EMAIL: 'ses', SITE_DOMAIN: 'app.your-domain.com.au' });
    expect(settingsOf(last)).toMatchObject({ secretsVersion: '20261207T093000Z', originVerifyVersion: 'a1b2c3d4-0000-4000-8000-00000000abcd' });
  });

  it('keeps every setting of an earlier deploy in the later ones (deploy.env is sourced before each)', () => {
    const comparable = (c: DeployCommand) => {
      const config = settingsOf(c) as unknown as Record<string, unknown>;
      return Object.fromEntries(Object.entries(config).filter(([key]) => !['userPoolEmail', 'secretsVersion', 'originVerifyVersion', 'environment'].includes(key)));
    };
    for (let i = 1; i < deploys.length; i++) expect(comparable(deploys[i]!), deploys[i]!.command).toMatchObject(comparable(deploys[i - 1]!));
    for (let i = 1; i < deploys.length; i++) expect(settingsOf(deploys[i]!).environment, deploys[i]!.command).toMatchObject(settingsOf(deploys[i - 1]!).environment);
  });

  it('runs npx cdk diff before every deploy, with the same settings, after sourcing deploy.env', () => {
    for (const deploy of deploys) {
      const before = commands.filter((c) => c.line <= deploy.line && c !== deploy);
      const previous = before.at(-1);
      expect(previous?.kind, `a diff right before "${deploy.command}" (line ${deploy.line})`).toBe('diff');
      expect(previous!.env).toEqual(deploy.env);
      const sourced = readmeDeploySection().shell.slice(0, previous!.line + 1).findLastIndex((l) => l.includes('. ./deploy.env'));
      const lastAppend = readmeDeploySection().shell.slice(0, previous!.line + 1).findLastIndex((l) => l.includes('>> deploy.env'));
      expect(sourced, `deploy.env sourced after its last change, before line ${previous!.line}`).toBeGreaterThan(lastAppend);
    }
  });

  it('asks on day 0, before the first deploy, for the Lambda quota and SES production access; the first deploy stops below the quota', () => {
    const firstDeploy = deploys[0]!.line;
    expect(lineOf('aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384')).toBeGreaterThan(-1);
    expect(lineOf('aws service-quotas request-service-quota-increase')).toBeLessThan(firstDeploy);
    expect(lineOf('aws sesv2 put-account-details --production-access-enabled')).toBeGreaterThan(-1);
    expect(lineOf('aws sesv2 put-account-details --production-access-enabled')).toBeLessThan(firstDeploy);
    const guard = readmeDeploySection().shell[firstDeploy - 1] ?? '';
    expect(lineOf('aws lambda get-account-settings')).toBeLessThan(firstDeploy);
    expect(guard, 'the first deploy is in the else branch of the quota check').toMatch(/^if \[ "\$LIMIT" -lt \d+ \]; then echo .*; else$/);
  });

  it("moves Cognito's mail to SES only when SES says ProductionAccessEnabled (and the domain is verified)", () => {
    const { shell } = readmeDeploySection();
    const switches = shell.filter((l) => l.includes('USER_POOL_EMAIL=ses') && l.includes('>> deploy.env'));
    expect(switches).toHaveLength(1);
    expect(switches[0]).toMatch(/^\[ "\$\(aws sesv2 get-account --query ProductionAccessEnabled --output text\)" = True \] && \[ "\$\(aws sesv2 get-email-identity .*VerifiedForSendingStatus --output text\)" = True \] && echo "USER_POOL_EMAIL=ses" >> deploy\.env$/);
    const ses = deploys.findIndex((d) => d.env.USER_POOL_EMAIL === 'ses');
    expect(ses).toBeGreaterThan(0);
    expect(deploys.slice(0, ses).every((d) => d.env.USER_POOL_EMAIL === 'cognito')).toBe(true);
  });

  it("registers Stripe's webhook before storing its signing secret, and waits for the certificate before deploying with it", () => {
    const webhook = lineOf('https://api.stripe.com/v1/webhook_endpoints');
    const secret = lineOf('--name /rampart/stripe/webhook-secret');
    expect(webhook).toBeGreaterThan(-1);
    expect(webhook).toBeLessThan(secret);
    expect(secret).toBeLessThan(deploys.find((d) => d.env.STRIPE_PARAMETER_PATH)!.line);
    const wait = lineOf('aws acm wait certificate-validated --region us-east-1 --certificate-arn "$CERT"');
    expect(wait).toBeGreaterThan(lineOf('aws acm request-certificate --region us-east-1'));
    expect(wait).toBeLessThan(lineOf('SITE_CERTIFICATE_ARN=$CERT'));
    expect(lineOf('SITE_CERTIFICATE_ARN=$CERT')).toBeLessThan(deploys.find((d) => d.env.SITE_CERTIFICATE_ARN)!.line);
  });

  it('makes a secret rotation take effect: a new SECRETS_VERSION after put-parameter --overwrite, the origin secret by its VersionId', () => {
    const overwrite = lineOf('aws ssm put-parameter --overwrite');
    expect(overwrite).toBeGreaterThan(-1);
    expect(lineOf('echo "SECRETS_VERSION=')).toBeGreaterThan(overwrite);
    expect(lineOf(/ORIGIN_VERSION=\$\(aws secretsmanager put-secret-value .* --query VersionId --output text\)/)).toBeLessThan(lineOf('ORIGIN_VERIFY_VERSION=$ORIGIN_VERSION'));
  });

  it('says what SMS needs: the spend limit raised by a support case from USD 1, the sender ID its resource policy for SNS', () => {
    const { section } = readmeDeploySection();
    expect(section).toMatch(/starts at USD 1 a month: `set-sms-attributes` with a higher `MonthlySpendLimit` fails\s+until the support case/);
    expect(lineOf('aws pinpoint-sms-voice-v2 put-resource-policy --resource-arn "$SENDER_ID_ARN"')).toBeLessThan(lineOf('aws sns set-sms-attributes'));
    expect(readmeDeploySection().shell[lineOf('aws pinpoint-sms-voice-v2 put-resource-policy')]).toContain('\\"Service\\":\\"sns.amazonaws.com\\"');
  });

  it('has day 2: roll back, restore the table (to a new table, then back), logs and dashboard, destroy and what it leaves, cost', () => {
    const { section } = readmeDeploySection();
    const day2 = section.split(/^### Day 2/m)[1]?.split(/^### /m)[0] ?? '';
    expect(day2).toContain('**Roll back.**');
    expect(day2).toContain('npx cdk rollback');
    expect(lineOf('aws dynamodb restore-table-to-point-in-time --source-table-name "$TABLE" --target-table-name "$TABLE-restored"')).toBeGreaterThan(-1);
    expect(lineOf('aws dynamodb restore-table-from-backup --target-table-name "$TABLE"')).toBeGreaterThan(lineOf('aws dynamodb delete-table --table-name "$TABLE"'));
    expect(lineOf('--point-in-time-recovery-specification PointInTimeRecoveryEnabled=true')).toBeGreaterThan(lineOf('restore-table-from-backup'));
    expect(lineOf(`AttributeName=${TABLE_KEYS.ttlAttribute}`)).toBeGreaterThan(lineOf('restore-table-from-backup'));
    expect(day2).toContain('`DashboardName` output');
    expect(day2).toMatch(/\*\*Tear down\.\*\* `npx cdk destroy --all`[\s\S]*leaves[\s\S]*the table[\s\S]*the user pool/);
    expect(day2).toContain('**What it costs.**');
  });

  it('uses only AWS CLI commands checked against AWS documentation (a new one is checked, then added here)', () => {
    const used = new Set(readmeDeploySection().shell.flatMap((line) => [...line.matchAll(/\baws ([a-z0-9-]+) ([a-z0-9-]+)/g)].map((m) => `${m[1]} ${m[2]}`)));
    expect([...used].sort()).toEqual(
      [
        'acm describe-certificate', 'acm request-certificate', 'acm wait', 'cloudformation describe-stack-resources', 'cloudformation describe-stacks',
        'dynamodb create-backup', 'dynamodb delete-table', 'dynamodb restore-table-from-backup', 'dynamodb restore-table-to-point-in-time', 'dynamodb scan', 'dynamodb update-continuous-backups',
        'dynamodb update-table', 'dynamodb update-time-to-live', 'dynamodb wait', 'lambda get-account-settings', 'pinpoint-sms-voice-v2 describe-sender-ids',
        'pinpoint-sms-voice-v2 describe-spend-limits', 'pinpoint-sms-voice-v2 put-resource-policy', 'secretsmanager put-secret-value', 'service-quotas get-service-quota',
        'service-quotas request-service-quota-increase', 'sesv2 get-account', 'sesv2 get-email-identity', 'sesv2 put-account-details', 'sns create-sms-sandbox-phone-number',
        'sns set-sms-attributes', 'sns subscribe', 'sns verify-sms-sandbox-phone-number', 'ssm put-parameter', 'sts get-caller-identity',
      ].sort(),
    );
  });

  it('states the concurrency the stack reserves, and the quota that leaves Lambda its 100 unreserved; the first deploy checks that figure', () => {
    const { stack } = buildStack({});
    const reserved = stack.node
      .findAll()
      .filter((c: IConstruct): c is CfnFunction => c instanceof CfnFunction)
      .reduce((sum, fn) => sum + ((stack.resolve(fn.reservedConcurrentExecutions) as number | undefined) ?? 0), 0);
    const { section, shell } = readmeDeploySection();
    expect(section).toContain(`The stack reserves ${reserved} concurrent executions and Lambda keeps 100 unreserved: below ${reserved + 100} the deploy`);
    expect(shell.some((line) => line.startsWith(`if [ "$LIMIT" -lt ${reserved + 100} ]`))).toBe(true);
  });
});

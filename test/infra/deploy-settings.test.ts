import { readFileSync } from 'node:fs';
import { App, Stack } from 'aws-cdk-lib';
import type { Policy } from 'aws-cdk-lib/aws-iam';
import { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../lib/app.js';
import { type DeployKey, deployDecisions } from '../../lib/deploy-settings.js';
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

/**
 * The shell of README "Deploy to AWS", read as an operator would run it: each `npx cdk deploy` with
 * the context it names and the variables exported before it (in that section, in order).
 */
function readmeDeployCommands(): { command: string; context: Record<string, string>; env: Record<string, string> }[] {
  const readme = readFileSync(fromRoot('README.md'), 'utf8');
  const section = readme.split(/^## Deploy to AWS$/m)[1]?.split(/^## /m)[0] ?? '';
  const shell = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n').replace(/\\\n\s*/g, ' ');
  // Values an operator gets from a command's output in the README (not exported there).
  const outputs: Record<string, string> = { CERT: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000' };
  const env: Record<string, string> = {};
  const commands: { command: string; context: Record<string, string>; env: Record<string, string> }[] = [];
  const expand = (value: string) =>
    value.replace(/^"|"$/g, '').replace(/\$\{?([A-Z_]+)\}?/g, (_, name: string) => {
      const known = env[name] ?? outputs[name];
      if (known === undefined) throw new Error(`README "Deploy to AWS" uses $${name} before setting it`);
      return known;
    });
  for (const line of shell.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim())) {
    if (line.startsWith('export ')) {
      for (const [, name, value] of line.matchAll(/([A-Z_]+)=(\S+)/g)) env[name!] = expand(value!);
    } else if (line.startsWith('npx cdk deploy')) {
      const context = Object.fromEntries([...line.matchAll(/-c ([A-Za-z_]+)=("[^"]*"|\S+)/g)].map(([, key, value]) => [key!, expand(value!)]));
      commands.push({ command: line, context, env: { ...env } });
    }
  }
  return commands;
}

describe('README "Deploy to AWS"', () => {
  const commands = readmeDeployCommands();

  it('deploys first with the region, mailFrom, alarmEmail and Cognito\'s own sender, as the issue asks', () => {
    expect(commands.length).toBeGreaterThanOrEqual(3);
    expect(commands[0]!.context).toMatchObject({ region: 'ap-southeast-2', mailFrom: expect.any(String), alarmEmail: expect.any(String), userPoolEmail: 'cognito' });
  });

  it('gives every deploy command settings synth accepts (no placeholder, nothing refused)', () => {
    for (const { command, context, env } of commands) {
      expect(() => readStackConfig(new App({ context }).node, env), command).not.toThrow();
    }
    expect(commands.at(-1)!.env).toMatchObject({ STRIPE_PARAMETER_PATH: '/rampart/stripe', HIBP_PARAMETER: '/rampart/hibp-api-key' });
  });

  it('keeps every setting of an earlier deploy in the later ones (context is not remembered; a dropped one would undo a step)', () => {
    const settingsOf = ({ context, env }: (typeof commands)[number]) => {
      const config = readStackConfig(new App({ context }).node, env) as unknown as Record<string, unknown>;
      return Object.fromEntries(Object.entries(config).filter(([key]) => key !== 'userPoolEmail'));
    };
    for (let i = 1; i < commands.length; i++) expect(settingsOf(commands[i]!), commands[i]!.command).toMatchObject(settingsOf(commands[i - 1]!));
  });

  it('states the concurrency the stack reserves, and the quota that leaves Lambda its 100 unreserved', () => {
    const { stack } = buildStack({});
    const reserved = stack.node
      .findAll()
      .filter((c: IConstruct): c is CfnFunction => c instanceof CfnFunction)
      .reduce((sum, fn) => sum + ((stack.resolve(fn.reservedConcurrentExecutions) as number | undefined) ?? 0), 0);
    const section = readFileSync(fromRoot('README.md'), 'utf8').split(/^## Deploy to AWS$/m)[1]!;
    expect(section).toContain(`The stack reserves ${reserved} concurrent executions and Lambda keeps 100 unreserved: below ${reserved + 100} the deploy`);
  });
});

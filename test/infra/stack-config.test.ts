import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { readStackConfig } from '../../lib/stack-config.js';

const required = { MAIL_FROM: 'no-reply@mail.bastion-security.com', AWS_REGION: 'ap-southeast-2' };

describe('stack settings', () => {
  it("default to Rampart, no custom domain, Cognito's emails through SES, no alarm email, no secrets, no deploy settings", () => {
    const config = readStackConfig(new App().node, required);
    expect(config).toEqual({
      region: 'ap-southeast-2',
      productName: 'Rampart',
      slug: 'rampart',
      mailFrom: 'no-reply@mail.bastion-security.com',
      mailDomain: 'mail.bastion-security.com',
      userPoolEmail: 'ses',
      logLevel: 'INFO',
      environment: {},
      waf: 'on',
      stackName: 'rampart',
      canary: 'on',
    });
  });

  it('take context over the environment, under the setting’s name or the variable’s', () => {
    const app = new App({ context: { productName: 'Bastion Pro', mailFrom: 'hello@bastion.io', region: 'eu-west-1', LOG_LEVEL: 'WARN' } });
    const config = readStackConfig(app.node, { ...required, PRODUCT_NAME: 'Ignored', ALARM_EMAIL: 'ops@bastion.io', LOG_LEVEL: 'DEBUG' });
    expect(config).toMatchObject({
      region: 'eu-west-1',
      productName: 'Bastion Pro',
      slug: 'bastion-pro',
      mailFrom: 'hello@bastion.io',
      mailDomain: 'bastion.io',
      alarmEmail: 'ops@bastion.io',
      logLevel: 'WARN',
    });
  });

  it('fail naming a missing mailFrom and region, with where to give them', () => {
    expect(() => readStackConfig(new App().node, {})).toThrow(/region: required \(-c region=… or AWS_REGION\); mailFrom: required \(-c mailFrom=… or MAIL_FROM\)/);
    expect(() => readStackConfig(new App().node, { MAIL_FROM: required.MAIL_FROM })).toThrow(/region: required/);
  });

  it('refuse a mailFrom at a placeholder domain, which SES can never verify', () => {
    for (const mailFrom of [
      'no-reply@example.com',
      'no-reply@mail.example.org',
      'a@example.net',
      'a@rampart.example',
      'a@shop.test',
      'a@localhost.localhost',
      'a@box.invalid',
      'a@printer.local',
    ]) {
      expect(() => readStackConfig(new App({ context: { mailFrom } }).node, { AWS_REGION: 'ap-southeast-2' }), mailFrom).toThrow(
        /mailFrom: a placeholder domain/,
      );
    }
    expect(readStackConfig(new App({ context: { mailFrom: 'a@example-shop.com' } }).node, { AWS_REGION: 'us-east-1' }).mailDomain).toBe('example-shop.com');
  });

  it('take the region only when given: never CDK_DEFAULT_REGION, which the CLI falls back to us-east-1 for', () => {
    expect(() => readStackConfig(new App().node, { MAIL_FROM: required.MAIL_FROM, CDK_DEFAULT_REGION: 'us-east-1' })).toThrow(/region: required/);
    expect(() => readStackConfig(new App({ context: { region: 'sydney' } }).node, required)).toThrow(/region: an AWS region/);
  });

  it('fail naming the bad key', () => {
    expect(() => readStackConfig(new App({ context: { mailFrom: 'not-an-address' } }).node, required)).toThrow(/mailFrom/);
    expect(() => readStackConfig(new App().node, { ...required, SITE_DOMAIN: 'app.bastion.io' })).toThrow(/certificateArn/);
    expect(() => readStackConfig(new App().node, { ...required, USER_POOL_EMAIL: 'smtp' })).toThrow(/userPoolEmail/);
    expect(() => readStackConfig(new App({ context: { hibpParameter: 'hibp key' } }).node, required)).toThrow(/hibpParameter: an SSM parameter name/);
  });
});

import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { readStackConfig } from '../../lib/stack-config.js';

describe('stack settings', () => {
  it("default to Rampart, no custom domain, no-reply@example.com (Cognito's emails through SES too), no alarm email", () => {
    const config = readStackConfig(new App().node, {});
    expect(config).toEqual({
      productName: 'Rampart',
      slug: 'rampart',
      mailFrom: 'no-reply@example.com',
      mailDomain: 'example.com',
      userPoolEmail: 'ses',
      logLevel: 'INFO',
    });
  });

  it('take context over the environment', () => {
    const app = new App({ context: { productName: 'Bastion Pro', mailFrom: 'hello@bastion.example' } });
    const config = readStackConfig(app.node, { PRODUCT_NAME: 'Ignored', ALARM_EMAIL: 'ops@bastion.example' });
    expect(config).toMatchObject({
      productName: 'Bastion Pro',
      slug: 'bastion-pro',
      mailFrom: 'hello@bastion.example',
      mailDomain: 'bastion.example',
      alarmEmail: 'ops@bastion.example',
    });
  });

  it('fail naming the bad key', () => {
    expect(() => readStackConfig(new App({ context: { mailFrom: 'not-an-address' } }).node, {})).toThrow(/mailFrom/);
    expect(() => readStackConfig(new App().node, { SITE_DOMAIN: 'app.example.com' })).toThrow(/certificateArn/);
    expect(() => readStackConfig(new App().node, { USER_POOL_EMAIL: 'smtp' })).toThrow(/userPoolEmail/);
  });
});

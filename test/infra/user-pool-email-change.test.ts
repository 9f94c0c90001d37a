import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Auth } from '../../lib/auth/auth.js';

describe('the user pool, when a user changes their email', () => {
  it('keeps the original (verified) email until the new one is confirmed with its code (issue 28 finding 3)', () => {
    // Prepare
    const stack = new Stack(new App(), 'AuthOnly', { env: { account: '123456789012', region: 'ap-southeast-2' } });
    new Auth(stack, 'Auth', { productName: 'Rampart' });

    // Act
    const pools = Object.values(Template.fromStack(stack).findResources('AWS::Cognito::UserPool')) as { Properties: Record<string, unknown> }[];

    // Assess
    expect(pools).toHaveLength(1);
    expect(pools[0]!.Properties.UserAttributeUpdateSettings).toEqual({ AttributesRequireVerificationBeforeUpdate: ['email'] });
    expect(pools[0]!.Properties.AutoVerifiedAttributes).toEqual(['email']);
  });
});

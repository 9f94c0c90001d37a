import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccountRecovery, FeaturePlan, Mfa, UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

export interface AuthProps {
  readonly productName: string;
}

/**
 * Cognito user pool: email sign-in, accounts created by the product (a lead may ask for one),
 * strong passwords, optional TOTP MFA. The browser signs in with SRP; USER_PASSWORD_AUTH stays
 * on because cognito-local (used by `npm start` and the tests) has no SRP.
 */
export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: `${props.productName} users`.replace(/[^\w\s+=,.@-]/g, ''),
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      selfSignUpEnabled: false,
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is offered (TOTP) but optional: customers are small businesses signing in to read reports; the dashboard encourages enabling it.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Essentials plan is enough at launch; the Plus plan (threat protection) is priced per user and is a later decision.',
      },
    );

    this.client = this.userPool.addClient('WebClient', {
      authFlows: { userSrp: true, userPassword: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      disableOAuth: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      enableTokenRevocation: true,
    });
  }
}

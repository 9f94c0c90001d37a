import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccountRecovery, FeaturePlan, Mfa, UserPool, UserPoolClient, UserPoolEmail, VerificationEmailStyle } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { accountCodeEmail } from '../../lambdas/domain/emails.js';
import { PASSWORD_POLICY } from '../../lambdas/domain/password-policy.js';
import type { MailerResources } from '../constructs/bindings.js';

export interface AuthProps {
  readonly productName: string;
  /**
   * The product's SES sender (lib/notify): Cognito sends its codes from `MAIL_FROM` through the
   * domain identity and configuration set. Absent: Cognito's default sender (`userPoolEmail=cognito`,
   * for a first deploy before the domain's DKIM records are verified).
   */
  readonly mailer?: MailerResources & { readonly mailDomain: string };
}

/**
 * Cognito user pool: email sign-in, self sign-up confirmed with an emailed code, accounts also
 * created by the product (a lead may ask for one), the password policy of
 * lambdas/domain/password-policy.ts, optional TOTP MFA. The browser signs in with SRP;
 * USER_PASSWORD_AUTH stays on because cognito-local (used by `npm start` and the tests) has no SRP.
 */
export class Auth extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    // The same email the local pool sends (bin/local/emulators.ts), with Cognito's code placeholder.
    const verification = accountCodeEmail({ productName: props.productName }, { to: '', kind: 'sign-up', code: '{####}' });
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: `${props.productName} users`.replace(/[^\w\s+=,.@-]/g, ''),
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      userVerification: { emailStyle: VerificationEmailStyle.CODE, emailSubject: verification.subject, emailBody: verification.html! },
      ...(props.mailer
        ? {
            email: UserPoolEmail.withSES({
              fromEmail: props.mailer.mailFrom,
              fromName: props.productName,
              // The identity is the sender's domain (lib/notify), not the address: the source ARN must name it.
              sesVerifiedDomain: props.mailer.mailDomain,
              sesRegion: Stack.of(this).region,
              configurationSetName: props.mailer.configurationSet.configurationSetName,
            }),
          }
        : {}),
      // Customers sign up in the browser and confirm their email with a code.
      selfSignUpEnabled: true,
      standardAttributes: { email: { required: true, mutable: true } },
      // A changed email takes effect only once its code is confirmed: until then the token keeps the
      // verified one, so a typed-in address can never match someone else's leads or invitations (issue 28 finding 3).
      keepOriginal: { email: true },
      passwordPolicy: {
        ...PASSWORD_POLICY,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Cognito checks the identity when the pool is created or updated: create the identity first.
    if (props.mailer) this.userPool.node.addDependency(props.mailer.identity);
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

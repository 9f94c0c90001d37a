import { CfnOutput, Stack } from 'aws-cdk-lib';
import { ConfigurationSet, EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { MailerResources } from '../constructs/bindings.js';

export interface NotifyProps {
  /** The sender address; its domain becomes the SES identity (Easy DKIM). */
  readonly mailFrom: string;
  readonly mailDomain: string;
  readonly slug: string;
}

/**
 * Email: an SES domain identity for the sender's domain and a configuration set the mailer sends
 * through. SMS needs no resource: functions bound to `sms` publish straight to phone numbers.
 */
export class Notify extends Construct {
  readonly mailer: MailerResources;

  constructor(scope: Construct, id: string, props: NotifyProps) {
    super(scope, id);
    const configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: `${props.slug}-mail`,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    const identity = new EmailIdentity(this, 'SenderDomain', {
      identity: Identity.domain(props.mailDomain),
      configurationSet,
    });
    this.mailer = { identity, configurationSet, mailFrom: props.mailFrom };

    // The three CNAME records that verify the domain (Easy DKIM); publish them in DNS.
    identity.dkimRecords.forEach((record, i) => {
      new CfnOutput(Stack.of(this), `DkimRecord${i + 1}`, {
        description: `DKIM CNAME ${i + 1} for ${props.mailDomain}`,
        value: `${record.name} CNAME ${record.value}`,
      });
    });
  }
}

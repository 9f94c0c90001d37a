import { CfnOutput, Stack } from 'aws-cdk-lib';
import {
  CloudWatchDimensionSource,
  ConfigurationSet,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
} from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { MailerResources } from '../constructs/bindings.js';

/**
 * The dimension SES gives the sending events it counts in CloudWatch (AWS/SES Send, Delivery, Bounce,
 * Complaint, Reject, DeliveryDelay): its own auto-tag naming the configuration set the mail went through.
 */
export const MAIL_EVENT_DIMENSION = 'ses:configuration-set';

/** The sending events counted in CloudWatch, by the metric name SES gives each. */
export const MAIL_EVENTS = {
  Send: EmailSendingEvent.SEND,
  Delivery: EmailSendingEvent.DELIVERY,
  Bounce: EmailSendingEvent.BOUNCE,
  Complaint: EmailSendingEvent.COMPLAINT,
  Reject: EmailSendingEvent.REJECT,
  DeliveryDelay: EmailSendingEvent.DELIVERY_DELAY,
} as const;

export interface NotifyProps {
  /** The sender address; its domain becomes the SES identity (Easy DKIM). */
  readonly mailFrom: string;
  readonly mailDomain: string;
  readonly slug: string;
}

/**
 * Email: an SES domain identity for the sender's domain and a configuration set the mailer sends
 * through, whose sending events (bounces and complaints above all) are counted in CloudWatch for the
 * alarms and the dashboard (lib/alarms). SMS needs no resource: functions bound to `sms` publish
 * straight to phone numbers.
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
    configurationSet.addEventDestination('CloudWatchEvents', {
      destination: EventDestination.cloudWatchDimensions([
        { source: CloudWatchDimensionSource.MESSAGE_TAG, name: MAIL_EVENT_DIMENSION, defaultValue: configurationSet.configurationSetName },
      ]),
      events: Object.values(MAIL_EVENTS),
    });

    // The three CNAME records that verify the domain (Easy DKIM); publish them in DNS.
    identity.dkimRecords.forEach((record, i) => {
      new CfnOutput(Stack.of(this), `DkimRecord${i + 1}`, {
        description: `DKIM CNAME ${i + 1} for ${props.mailDomain}`,
        value: `${record.name} CNAME ${record.value}`,
      });
    });
  }
}

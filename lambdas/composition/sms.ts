import { SNSClient } from '@aws-sdk/client-sns';
import { OutboxSms, SnsSms } from '../adapters/sms.adapter.js';
import { required } from '../config.js';
import type { SmsSender } from '../domain/ports.js';
import { clientConfig, documentClient, traced } from './aws.js';
import type { Provider } from './core.js';

/** Amazon SNS on AWS; locally (SMS_MODE=outbox) the table's SMS outbox. */
export const provide: Provider = ({ config, clock }) => ({
  sms: (): SmsSender =>
    config.SMS_MODE === 'outbox'
      ? new OutboxSms(documentClient(config), required(config, 'TABLE_NAME'), clock)
      : new SnsSms(traced(new SNSClient(clientConfig(config, undefined)), undefined)),
});

import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsRescanFanout } from '../adapters/sqs-rescan-fanout.adapter.js';
import { required } from '../config.js';
import { clientConfig, traced } from './aws.js';
import type { Provider } from './core.js';

/**
 * The monitoring-fanout queue (MONITORING_FANOUT_QUEUE_URL; the scheduler checks it is set before it
 * sends). Built without it too (the key is optional: a stack or test without the queue), and then
 * refuses to send, naming the key.
 */
export const provide: Provider = ({ config }) => ({
  rescanFanout: () => new SqsRescanFanout(traced(new SQSClient(clientConfig(config, config.SQS_ENDPOINT)), config.SQS_ENDPOINT), () => required(config, 'MONITORING_FANOUT_QUEUE_URL')),
});

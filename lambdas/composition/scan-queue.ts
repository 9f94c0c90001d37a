import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsScanJobs } from '../adapters/sqs-scan-jobs.adapter.js';
import { required } from '../config.js';
import { clientConfig, traced } from './aws.js';
import type { Provider } from './core.js';

export const provide: Provider = ({ config }) => ({
  scanJobs: () =>
    new SqsScanJobs(traced(new SQSClient(clientConfig(config, config.SQS_ENDPOINT)), config.SQS_ENDPOINT), {
      free: required(config, 'SCAN_QUEUE_URL'),
      paid: required(config, 'PAID_SCAN_QUEUE_URL'),
      monitoring: required(config, 'MONITORING_SCAN_QUEUE_URL'),
    }),
});

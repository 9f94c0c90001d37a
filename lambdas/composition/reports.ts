import { S3Client } from '@aws-sdk/client-s3';
import { S3Blobs } from '../adapters/s3-blobs.adapter.js';
import { required } from '../config.js';
import { clientConfig, traced } from './aws.js';
import type { Provider } from './core.js';

export const provide: Provider = ({ config }) => ({
  reports: () =>
    new S3Blobs(
      traced(
        new S3Client({
          ...clientConfig(config, config.S3_ENDPOINT),
          forcePathStyle: Boolean(config.S3_ENDPOINT),
          requestChecksumCalculation: 'WHEN_REQUIRED',
        }),
        config.S3_ENDPOINT,
      ),
      required(config, 'REPORTS_BUCKET'),
    ),
});

import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { LOG_RETENTION_DAYS } from '../../lambdas/domain/retention.js';

/** How long report PDFs are kept. Audits outlive them; a report can be generated again. */
export const REPORT_RETENTION_DAYS = 365;
export const ACCESS_LOG_RETENTION_DAYS = LOG_RETENTION_DAYS.siteAccessLogs;

/**
 * Buckets: one for access logs (S3 server access logs and CloudFront standard logs), one for the
 * PDF reports. Both private, TLS-only, encrypted.
 */
export class Storage extends Construct {
  readonly logs: Bucket;
  readonly reports: Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.logs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // CloudFront standard logging writes with ACLs; everything else uses the bucket policy.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_RETENTION_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging it into itself would loop.',
    });

    this.reports = new Bucket(this, 'Reports', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 'reports/',
      lifecycleRules: [
        { expiration: Duration.days(REPORT_RETENTION_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}

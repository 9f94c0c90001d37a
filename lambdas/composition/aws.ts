import { Tracer } from '@aws-lambda-powertools/tracer';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config.js';

/** Credentials for the emulators: s3rver accepts only this pair; the others accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** An AWS SDK client's settings: the region, and on one machine the emulator's endpoint. */
export function clientConfig(config: Config, endpoint: string | undefined) {
  return { region: config.AWS_REGION, ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}) };
}

let tracer: Tracer | undefined;

/**
 * An SDK client whose calls are X-Ray subsegments (Powertools Tracer), on Lambda with active tracing.
 * Off wherever Tracer finds no Lambda (AWS_EXECUTION_ENV unset: the local stack, the tests, the shipped
 * bundles' test processes) or POWERTOOLS_TRACE_ENABLED=false, and for a client of a local emulator
 * (`endpoint`): nothing then tries to reach an X-Ray daemon.
 */
export function traced<T>(client: T, endpoint: string | undefined): T {
  if (endpoint) return client;
  tracer ??= new Tracer();
  return tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
}

const documentClients = new WeakMap<Config, DynamoDBDocumentClient>();

/** One DynamoDB document client per configuration (shared by the table, SMS outbox and local payments). */
export function documentClient(config: Config): DynamoDBDocumentClient {
  let client = documentClients.get(config);
  if (!client) {
    client = DynamoDBDocumentClient.from(traced(new DynamoDBClient(clientConfig(config, config.DYNAMODB_ENDPOINT)), config.DYNAMODB_ENDPOINT), {
      marshallOptions: { removeUndefinedValues: true },
    });
    documentClients.set(config, client);
  }
  return client;
}

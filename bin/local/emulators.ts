/**
 * The AWS emulators `npm start` and the tests run in-process, each on 127.0.0.1 and a free port.
 * Nothing in lambdas/ imports this file: the handlers reach the emulators through the same AWS SDK
 * adapters they use on AWS, given these endpoints.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesMailer } from '../../lambdas/adapters/ses-mailer.adapter.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { type AccountCodeKind, accountCodeEmail } from '../../lambdas/domain/emails.js';
import { makeS3rverWritesAtomic, makeStormDbWritesAtomic, removeLeftoverTemporaries } from './atomic-writes.js';
import { type IndexRebuild, rebuildDynaliteIndexes } from './dynalite-indexes.js';

const require = createRequire(import.meta.url);
const HOST = '127.0.0.1';

export interface Emulator {
  endpoint: string;
  close(): Promise<void>;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

function endpointOf(server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://${HOST}:${port}`;
}

/** A free TCP port on loopback (for emulators that must know their port before they listen). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, HOST, resolve));
  const { port } = probe.address() as AddressInfo;
  await closeServer(probe);
  return port;
}

/**
 * DynamoDB: dynalite, stored on disk under `dir` (survives restarts). Its secondary indexes are rebuilt
 * from the items first, since a kill can leave them disagreeing with the table (see dynalite-indexes.ts).
 */
export async function startDynamoDb(dir: string): Promise<Emulator & { indexRepair: IndexRebuild }> {
  mkdirSync(dir, { recursive: true });
  const indexRepair = await rebuildDynaliteIndexes(dir);
  const dynalite = require('dynalite') as (options: { path?: string; createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }) => Server;
  const server = dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  return { endpoint: endpointOf(server), close: () => closeServer(server), indexRepair };
}

/** S3: s3rver, objects stored on disk under `dir`, each written whole (atomic-writes.ts). */
export async function startS3(dir: string): Promise<Emulator> {
  mkdirSync(dir, { recursive: true });
  removeLeftoverTemporaries(dir);
  makeS3rverWritesAtomic(require('s3rver/lib/stores/filesystem'), (require('s3rver/lib/models/object') as { ALLOWED_METADATA: string[] }).ALLOWED_METADATA);
  const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> };
  const s3 = new S3rver({ port: 0, address: HOST, directory: dir, silent: true });
  const { port } = await s3.run();
  return { endpoint: `http://${HOST}:${port}`, close: () => s3.close() };
}

/** SES v2: aws-ses-v2-local. Its mailbox page is at the endpoint's root; mail is kept in memory. */
export async function startSes(): Promise<Emulator> {
  const mod = require('aws-ses-v2-local') as { default: ((config: { host: string; port: number }) => Promise<Server>) & { default?: unknown } };
  const start = (mod.default.default ?? mod.default) as (config: { host: string; port: number }) => Promise<Server>;
  const server = await start({ host: HOST, port: 0 });
  return { endpoint: endpointOf(server), close: () => closeServer(server) };
}

/** SQS: local-aws-sqs (queues in memory; `npm start` re-enqueues unfinished audits at start-up). */
export async function startSqs(): Promise<Emulator> {
  const { createSqsServer } = require('local-aws-sqs') as {
    createSqsServer(options: Record<string, unknown>): Promise<Server>;
  };
  const port = await freePort();
  const server = await createSqsServer({
    port,
    hostname: HOST,
    region: 'ap-southeast-2',
    emulateQueueCreationLifecycle: false,
    validateDlqDestination: true,
  });
  return { endpoint: `http://${HOST}:${port}`, close: () => closeServer(server) };
}

/** Where the local user pool's emails go: through SES (the local mailbox), as Rampart's own emails do. */
export interface CognitoMail {
  sesEndpoint: string;
  /** The sender address (MAIL_FROM). */
  from: string;
  productName: string;
}

/** What cognito-local hands a message sender: the code, and (added below) why it is sent. */
interface PoolMessage {
  __code?: string;
  __source?: string;
}

/** cognito-local's reasons for a message → the email Rampart sends for it. */
const messageKinds: Record<string, AccountCodeKind> = {
  SignUp: 'sign-up',
  ResendCode: 'sign-up',
  ForgotPassword: 'forgot-password',
  AdminCreateUser: 'temporary-password',
  UpdateUserAttribute: 'verify-email',
  VerifyUserAttribute: 'verify-email',
};

/**
 * cognito-local's MessageSender (services/messageDelivery/messageSender.d.ts) that emails the code
 * through the SES emulator instead of printing it: the sign-up code, the password reset code and an
 * administrator's temporary password land in the local mailbox like every other email.
 */
export function sesMessageSender(mail: CognitoMail) {
  const mailer = new SesMailer(new SESv2Client({ endpoint: mail.sesEndpoint, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS }), mail.from);
  return {
    async sendEmail(_ctx: unknown, _user: unknown, destination: string, message: PoolMessage): Promise<void> {
      const kind = messageKinds[message.__source ?? ''] ?? 'sign-up';
      await mailer.send(accountCodeEmail({ productName: mail.productName }, { to: destination, kind, code: message.__code ?? '' }));
    },
    sendSms(): Promise<void> {
      // The local pool has no phone attributes to deliver to; say so rather than lose a code.
      return Promise.reject(new Error('The local user pool sends its codes by email only.'));
    },
  };
}

type TargetHandler = (ctx: unknown, request: Record<string, unknown>) => Promise<unknown>;
interface LocalPoolUser {
  Attributes: { Name: string; Value?: string }[];
}
interface PoolsByClient {
  getUserPoolForClientId(ctx: unknown, clientId: unknown): Promise<{
    getUserByUsername(ctx: unknown, username: unknown): Promise<LocalPoolUser | null>;
    saveUser(ctx: unknown, user: LocalPoolUser): Promise<void>;
  }>;
}

/**
 * Cognito marks the address verified when the sign-up code mailed to it is confirmed (the pool's
 * AutoVerifiedAttributes: email); cognito-local 5.3's ConfirmSignUp does not, so a self-signed-up
 * user's tokens said `email_verified: false` and every rule that takes only a verified address
 * (DECISIONS "Access ends with membership") ignored them locally. Done here after its own handler.
 */
function verifyEmailOnConfirm(confirm: TargetHandler, pools: PoolsByClient): TargetHandler {
  return async (ctx, request) => {
    const answer = await confirm(ctx, request);
    const pool = await pools.getUserPoolForClientId(ctx, request.ClientId);
    const user = await pool.getUserByUsername(ctx, request.Username);
    if (user) await pool.saveUser(ctx, { ...user, Attributes: [...user.Attributes.filter((a) => a.Name !== 'email_verified'), { Name: 'email_verified', Value: 'true' }] });
    return answer;
  };
}

/**
 * Cognito: cognito-local, assembled here rather than through its default server so that its data
 * lives under `dir`, it listens on a free port, its token issuer names that port, and its emails
 * (sign-up and reset codes, temporary passwords) go through SES to the local mailbox.
 */
export async function startCognito(dir: string, mail: CognitoMail): Promise<Emulator> {
  const dataDirectory = join(dir, 'db');
  mkdirSync(dataDirectory, { recursive: true });
  // Pool files are replaced whole, never rewritten in place (atomic-writes.ts); a kill can leave a temporary file behind.
  removeLeftoverTemporaries(dataDirectory);
  // cognito-local brings the AWS SDK v2 for its Lambda triggers (unused here); its notice is noise.
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE ??= '1';
  const cognitoRequire = createRequire(require.resolve('cognito-local'));
  const pino = cognitoRequire('pino') as (options: { level: string }) => unknown;
  const AWS = cognitoRequire('aws-sdk') as { Lambda: new (config: unknown) => unknown };
  const services = require('cognito-local/lib/services') as Record<string, new (...args: unknown[]) => unknown>;
  const { MessagesService } = require('cognito-local/lib/services/messages') as {
    MessagesService: new (triggers: unknown, delivery: unknown) => { create(ctx: unknown, source: string, ...rest: unknown[]): Promise<PoolMessage> };
  };
  const { CognitoServiceFactoryImpl } = require('cognito-local/lib/services/cognitoService') as Record<string, new (...args: unknown[]) => { create(ctx: unknown, defaults: unknown): Promise<unknown> }>;
  makeStormDbWritesAtomic((cognitoRequire('stormdb') as { localFileEngine: Parameters<typeof makeStormDbWritesAtomic>[0] }).localFileEngine);
  const { StormDBDataStoreFactory } = require('cognito-local/lib/services/dataStore/stormDb') as Record<string, new (dir: string) => unknown>;
  const { CryptoService } = require('cognito-local/lib/services/crypto') as Record<string, new (config: unknown) => unknown>;
  const { MessageDeliveryService } = require('cognito-local/lib/services/messageDelivery/messageDelivery') as Record<string, new (sender: unknown) => unknown>;
  const { otp } = require('cognito-local/lib/services/otp') as { otp: () => string };
  const { JwtTokenGenerator } = require('cognito-local/lib/services/tokenGenerator') as Record<string, new (...args: unknown[]) => unknown>;
  const { UserPoolServiceFactoryImpl } = require('cognito-local/lib/services/userPoolService') as Record<string, new (...args: unknown[]) => unknown>;
  const { Router } = require('cognito-local/lib/server/Router') as { Router: (services: unknown) => unknown };
  const { createServer: createCognitoServer } = require('cognito-local/lib/server/server') as {
    createServer(router: unknown, logger: unknown, options: unknown, services: unknown): { start(): Promise<Server> };
  };

  // 'error': a wrong password or an unknown user is cognito-local's warning, and the client's answer already says it.
  const logger = pino({ level: 'error' });
  const ctx = { logger };
  const local = { credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, region: 'local' };
  const tokenConfig = { IssuerDomain: `http://${HOST}:0` };
  const clock = new services.DateClock!();
  const dataStoreFactory = new StormDBDataStoreFactory!(dataDirectory);
  const cognitoClient = await new CognitoServiceFactoryImpl!(
    dataDirectory,
    dataStoreFactory,
    new UserPoolServiceFactoryImpl!(clock, dataStoreFactory),
  ).create(ctx, { UsernameAttributes: ['email'] });
  // The sender is told only the code; the subject depends on why it is sent (sign-up, reset …).
  class SourceTaggedMessages extends MessagesService {
    override async create(ctx: unknown, source: string, ...rest: unknown[]): Promise<PoolMessage> {
      return { ...(await super.create(ctx, source, ...rest)), __source: source };
    }
  }
  const triggers = new services.TriggersService!(clock, cognitoClient, new services.LambdaService!({}, new AWS.Lambda(local)), new CryptoService!(local));
  const targets = Router({
    clock,
    cognito: cognitoClient,
    config: { TokenConfig: tokenConfig },
    messages: new SourceTaggedMessages(triggers, new MessageDeliveryService!(sesMessageSender(mail))),
    otp,
    tokenGenerator: new JwtTokenGenerator!(clock, triggers, tokenConfig),
    triggers,
  }) as (target: string) => TargetHandler;
  const router = (target: string): TargetHandler => (target === 'ConfirmSignUp' ? verifyEmailOnConfirm(targets(target), cognitoClient as PoolsByClient) : targets(target));
  const server = await createCognitoServer(router, logger, { port: 0, hostname: HOST, development: false, https: false }, undefined).start();
  // Tokens name their issuer: now that the port is known, make it this server's address.
  tokenConfig.IssuerDomain = endpointOf(server);
  return { endpoint: endpointOf(server), close: () => closeServer(server) };
}

import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { fromRoot } from '../../lib/paths.js';

/** A function as the template deploys it: its asset directory, handler setting, environment and limits. */
export interface DeployedFunction {
  readonly name: string;
  readonly assetDir: string;
  /** The Lambda handler setting: `{file}.{export}`. */
  readonly handler: string;
  readonly environment: Record<string, string>;
  readonly timeoutSeconds: number;
  readonly memorySize: number;
}

export interface LambdaProcess {
  readonly name: string;
  /** How long importing the bundle's entry took in the child, ms. */
  readonly importMs: number;
  /** Runs one invocation; rejects with the handler's error, or when it outlasts the function's timeout (Lambda would stop it there). */
  invoke<R = unknown>(event: unknown): Promise<R>;
  /** What the child wrote to stdout and stderr (its logs), for a failure's message. */
  output(): string;
  close(): Promise<void>;
}

interface Reply {
  id?: string;
  ok?: boolean;
  result?: unknown;
  error?: { name?: string; message: string; stack?: string };
  ready?: boolean;
  importMs?: number;
}

let guardFile: string | undefined;

/**
 * The test network guard (test/support/loopback-only.ts) as plain JavaScript, preloaded into every
 * child with `--import`: a bundle may reach loopback only, never port 2024, never the system resolver.
 */
function networkGuard(): string {
  if (!guardFile) {
    const dir = mkdtempSync(path.join(tmpdir(), 'rampart-guard-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    guardFile = path.join(dir, 'loopback-only.mjs');
    const source = readFileSync(fromRoot('test', 'support', 'loopback-only.ts'), 'utf8');
    writeFileSync(guardFile, transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' }).code);
  }
  return pathToFileURL(guardFile).href;
}

/**
 * Starts a function's bundle in a child process of its own (test/support/lambda-runner.mjs) with
 * exactly the given environment, nothing inherited from the test's, and waits until its entry has
 * been imported. Invocations run one at a time, as in one Lambda execution environment.
 */
export async function startLambdaProcess(fn: DeployedFunction): Promise<LambdaProcess> {
  const logs: string[] = [];
  const child: ChildProcess = fork(fromRoot('test', 'support', 'lambda-runner.mjs'), [fn.assetDir, fn.handler], {
    env: fn.environment,
    execArgv: ['--import', networkGuard()],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    cwd: fn.assetDir,
  });
  const keep = (chunk: Buffer) => {
    logs.push(chunk.toString('utf8'));
    // The last few hundred kB are enough to explain a failure.
    if (logs.length > 2000) logs.splice(0, 1000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const pending = new Map<string, { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  let exited: Error | undefined;
  const ready = new Promise<number>((resolve, reject) => {
    child.on('message', (reply: Reply) => {
      if (reply.ready) return resolve(reply.importMs ?? 0);
      const waiting = reply.id ? pending.get(reply.id) : undefined;
      if (!waiting) return;
      pending.delete(reply.id!);
      clearTimeout(waiting.timer);
      if (reply.ok) waiting.resolve(reply.result);
      else waiting.reject(Object.assign(new Error(`${fn.name} threw ${reply.error?.name ?? 'Error'}: ${reply.error?.message}`), { stack: reply.error?.stack }));
    });
    child.once('exit', (code, signal) => {
      exited = new Error(`${fn.name}'s process exited (${signal ?? code}) before answering:\n${logs.join('').slice(-4000)}`);
      reject(exited);
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(exited);
      }
      pending.clear();
    });
  });
  const importMs = await ready;

  return {
    name: fn.name,
    importMs,
    invoke<R>(event: unknown): Promise<R> {
      if (exited) return Promise.reject(exited);
      const id = randomUUID();
      const context = {
        functionName: fn.name,
        functionVersion: '$LATEST',
        invokedFunctionArn: `arn:aws:lambda:ap-southeast-2:123456789012:function:${fn.name}`,
        memoryLimitInMB: String(fn.memorySize),
        awsRequestId: id,
        logGroupName: `/aws/lambda/${fn.name}`,
        logStreamName: 'local',
        timeoutMs: fn.timeoutSeconds * 1000,
      };
      return new Promise<R>((resolve, reject) => {
        // Counted from the send: callers invoke one function one request at a time, so nothing waits in the child's queue.
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${fn.name} did not answer within its ${fn.timeoutSeconds} s timeout:\n${logs.join('').slice(-4000)}`));
        }, fn.timeoutSeconds * 1000);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        child.send({ id, event, context });
      });
    },
    output: () => logs.join(''),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

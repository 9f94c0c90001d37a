import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const READY_LINE = /is ready at (http:\/\/127\.0\.0\.1:\d+)/;
const OUTPUT_KEPT = 200;

export interface LocalApp {
  url: string;
  /** The last lines the process printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
  /** kill -9 of the whole process group: a crash, with no chance to clean up (test/hardening/faults.test.ts). */
  crash(): Promise<void>;
}

/**
 * The environment `npm start` would get from a shell: the runner's own markers left out, above all
 * NODE_ENV=test, which would make the site build a development bundle.
 */
function npmStartEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && key !== 'TEST' && !key.startsWith('VITEST')),
  );
}

/**
 * Starts the real `npm start` process (bin/local.ts) and resolves once it prints its ready line.
 * It runs in its own process group, so stopping it also ends anything it started (such as a build).
 */
export function startLocalApp(env: Record<string, string>, timeoutMs = 60_000): Promise<LocalApp> {
  const child = spawn(`${REPO_ROOT}node_modules/.bin/tsx`, ['bin/local.ts'], {
    cwd: REPO_ROOT,
    // Two-step sign-in's team rule is off for the suites that predate it (teams, msp); mfa.test.ts turns it on.
    env: { ...npmStartEnv(), TWO_STEP_FOR_TEAMS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  const remember = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter((line) => line.length > 0));
    lines.splice(0, Math.max(0, lines.length - OUTPUT_KEPT));
  };
  child.stderr.on('data', remember);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = () => lines.join('\n');

  return new Promise<LocalApp>((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      void stopProcess(child, exited).finally(() => reject(new Error(`${reason}\n--- output ---\n${output()}`)));
    };
    const timer = setTimeout(() => fail(`bin/local.ts did not print its ready line within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (error) => fail(`bin/local.ts could not start: ${error.message}`));
    const exitedEarly = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`bin/local.ts exited before it was ready (code ${code}, signal ${signal})`);
    child.once('exit', exitedEarly);
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      remember(chunk);
      // Keep a tail only: the ready line may arrive split across chunks.
      pending = (pending + chunk.toString('utf8')).slice(-1_000);
      const match = READY_LINE.exec(pending);
      if (!match?.[1]) return;
      pending = '';
      clearTimeout(timer);
      child.off('exit', exitedEarly);
      resolve({ url: match[1], output, stop: () => stopProcess(child, exited), crash: () => stopProcess(child, exited, 'SIGKILL') });
    });
  });
}

async function stopProcess(child: ChildProcess, exited: Promise<void>, first: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const pid = child.pid;
  if (child.exitCode !== null || child.signalCode !== null || pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup(first);
  const killed = setTimeout(() => signalGroup('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killed);
}

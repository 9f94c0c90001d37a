/**
 * Runs one tool of the bench: bounded (timeout, output cap), never through a shell, timed in
 * wall seconds, and confined to the range's DNS (test/range/isolation.ts): a stray name lookup by
 * any peer (or by npm) reaches the range's bind9, never the system resolver.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isolated } from '../test/range/isolation.js';

export { removeRangeResolvConf } from '../test/range/isolation.js';

export interface Run {
  command: string;
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  timedOut: boolean;
}

/** Runs `command args` (array, no shell) under the range-only resolver, within `timeoutMs`. */
export async function runTool(command: string, args: string[], options: { timeoutMs: number; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  const jail = await isolated(command, args);
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      jail.command,
      jail.args,
      {
        cwd: options.cwd,
        env: { ...process.env, npm_config_update_notifier: 'false', NO_COLOR: '1', ...options.env },
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        resolve({
          command,
          args,
          code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
          seconds: (performance.now() - started) / 1000,
          timedOut: Boolean(failure?.killed),
        });
      },
    );
  });
}

/** True when `command` is on the PATH (checked without running it). */
export async function onPath(command: string): Promise<boolean> {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    try {
      await fs.access(path.join(dir, command), fs.constants.X_OK);
      return true;
    } catch {
      // next
    }
  }
  return false;
}

/**
 * Runs one tool of the bench: bounded (timeout, output cap), never through a shell, timed in
 * wall seconds, and confined to the range's DNS: each command runs in its own mount namespace
 * where /etc/resolv.conf is a file naming only the range's bind9, so a stray name lookup by any
 * peer (or by npm) reaches 127.0.0.6, never the system resolver.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rangeLayout } from '../test/range/layout.js';

export interface Run {
  command: string;
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  timedOut: boolean;
}

/** Mounts $1 over /etc/resolv.conf in this (private) mount namespace, then runs the rest. Constant: no input is interpolated. */
const WITH_RESOLV = 'mount --bind "$1" /etc/resolv.conf && shift && exec "$@"';

let resolvConf: string | undefined;

/** A resolv.conf pointing at the range's DNS server only (written once per bench run). */
export async function rangeResolvConf(): Promise<string> {
  if (resolvConf) return resolvConf;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rampart-bench-'));
  resolvConf = path.join(dir, 'resolv.conf');
  await fs.writeFile(resolvConf, `nameserver ${rangeLayout.resolver.host}\noptions timeout:1 attempts:1\n`);
  return resolvConf;
}

/** Runs `command args` (array, no shell) under the range-only resolver, within `timeoutMs`. */
export async function runTool(command: string, args: string[], options: { timeoutMs: number; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  const resolv = await rangeResolvConf();
  const wrapped = ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', WITH_RESOLV, 'sh', resolv, command, ...args];
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      'unshare',
      wrapped,
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

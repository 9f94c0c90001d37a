/**
 * Runs a command with the range's bind9 as its only DNS server: in a private mount namespace,
 * /etc/resolv.conf is replaced by a file naming 127.0.0.6 alone, so any name lookup the command
 * (or a library under it) makes reaches the range, never the system resolver. Needs root.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rangeLayout } from './layout.js';

/** Mounts $1 over /etc/resolv.conf in this (private) mount namespace, then runs the rest. Constant: no input is interpolated. */
const WITH_RESOLV = 'mount --bind "$1" /etc/resolv.conf && shift && exec "$@"';

let resolvConf: string | undefined;

/** A resolv.conf pointing at the range's DNS server only (written once per process, in a fresh temp folder). */
export async function rangeResolvConf(): Promise<string> {
  if (resolvConf) return resolvConf;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rampart-resolv-'));
  resolvConf = path.join(dir, 'resolv.conf');
  await fs.writeFile(resolvConf, `nameserver ${rangeLayout.resolver.host}\noptions timeout:1 attempts:1\n`, { mode: 0o644 });
  return resolvConf;
}

/** Removes the resolv.conf written by this process (the namespaces that mounted it keep their copy). */
export async function removeRangeResolvConf(): Promise<void> {
  if (!resolvConf) return;
  await fs.rm(path.dirname(resolvConf), { recursive: true, force: true });
  resolvConf = undefined;
}

/** The `unshare` command line that runs `command args` under the range-only resolver. */
export async function isolated(command: string, args: string[]): Promise<{ command: string; args: string[] }> {
  const resolv = await rangeResolvConf();
  return { command: 'unshare', args: ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', WITH_RESOLV, 'sh', resolv, command, ...args] };
}

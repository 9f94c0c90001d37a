/**
 * The network of the range's firewalled host (layout.ts `rangeLayout.firewalled`): a network
 * namespace joined to this machine by a veth pair, and the nftables rules inside it. The daemons
 * that listen there are started by range.ts like the others, through `inNamespace()`.
 *
 * Every nft command runs inside the namespace (`ip netns exec`) and touches only its own table,
 * never the machine's ruleset. Names of namespaces and links are global: one range at a time.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { rangeLayout } from './layout.js';

const fw = rangeLayout.firewalled;
const TABLE = 'rampart_fw';
const CHILD_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };

/**
 * The namespace's ruleset: loss first (2% of every packet that arrives, whatever it is), then
 * policy drop for TCP but the open ports. Other protocols pass (ICMP, so the host still looks
 * alive to nmap's discovery, as a real server's usually does). Replaces only its own table.
 */
export function firewallRuleset(): string {
  const open = Object.values(fw.ports).sort((a, b) => a - b).join(', ');
  return [
    `table inet ${TABLE}`,
    `delete table inet ${TABLE}`,
    `table inet ${TABLE} {`,
    '  chain input {',
    '    type filter hook input priority filter; policy drop;',
    '    iif "lo" accept',
    `    numgen random mod 100 < ${fw.lossPercent} drop`,
    '    meta l4proto != tcp accept',
    `    tcp dport { ${open} } accept`,
    '  }',
    '}',
    '',
  ].join('\n');
}

/** `command args` to run inside the firewalled host's namespace. */
export function inNamespace(command: string, args: string[]): { command: string; args: string[] } {
  return { command: '/usr/sbin/ip', args: ['netns', 'exec', fw.netns, command, ...args] };
}

/** True when this process sees the namespace (`ip netns` names live in the mount namespace that made them). */
export async function namespaceVisible(): Promise<boolean> {
  return fs.access(`/run/netns/${fw.netns}`).then(
    () => true,
    () => false,
  );
}

/**
 * Makes the namespace, its link and addresses when missing, then loads the firewall (idempotent).
 * A host-side link without a namespace this process can see belongs to a namespace made by a
 * range that is gone (or in another mount namespace): it is deleted and the network made anew.
 */
export async function ensureFirewalledNetwork(rulesetFile: string): Promise<void> {
  const cidr = (address: string) => `${address}/${fw.prefixLength}`;
  if (!(await namespaceVisible())) {
    if (await linkExists(fw.hostSide.link)) await run('ip', ['link', 'del', fw.hostSide.link]);
    await run('ip', ['netns', 'add', fw.netns]);
  }
  if (!(await linkExists(fw.hostSide.link))) {
    await run('ip', ['link', 'add', fw.hostSide.link, 'type', 'veth', 'peer', 'name', fw.link, 'netns', fw.netns]);
    // No IPv6 on the pair: nothing of the range speaks it, and it would add neighbour chatter to the loss.
    await run('sysctl', ['-q', '-w', `net.ipv6.conf.${fw.hostSide.link}.disable_ipv6=1`]).catch(() => undefined);
    await run('ip', ['addr', 'add', cidr(fw.hostSide.address), 'dev', fw.hostSide.link]);
    await run('ip', ['link', 'set', fw.hostSide.link, 'up']);
    await run('ip', ['-n', fw.netns, 'addr', 'add', cidr(fw.address), 'dev', fw.link]);
    await run('ip', ['-n', fw.netns, 'link', 'set', fw.link, 'up']);
    await run('ip', ['-n', fw.netns, 'link', 'set', 'lo', 'up']);
  }
  await fs.writeFile(rulesetFile, firewallRuleset(), { mode: 0o644 });
  const nft = inNamespace('/usr/sbin/nft', ['-f', rulesetFile]);
  await run(nft.command, nft.args);
}

/** The namespace's ruleset as nft lists it (for tests: the rules in effect, not the file). */
export async function listFirewall(): Promise<string> {
  const nft = inNamespace('/usr/sbin/nft', ['list', 'table', 'inet', TABLE]);
  return run(nft.command, nft.args);
}

/**
 * Ends what still runs in the namespace (each PID ip netns lists: only the range starts anything
 * there), deletes it and the host side of the link. Quiet when there is nothing to remove.
 */
export async function removeFirewalledNetwork(): Promise<void> {
  if (await namespaceVisible()) {
    const pids = (await run('ip', ['netns', 'pids', fw.netns]).catch(() => '')).split('\n').map(Number).filter((pid) => Number.isInteger(pid) && pid > 1);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await run('ip', ['netns', 'del', fw.netns]).catch(() => undefined);
  }
  if (await linkExists(fw.hostSide.link)) await run('ip', ['link', 'del', fw.hostSide.link]).catch(() => undefined);
}

/**
 * True when this machine has its end of the link, with its address: only then does the host's
 * address route into the namespace. Without it, 10.203.19.0/24 would follow the default route off
 * the machine, so nothing may connect there (the range's own checks ask this first).
 */
export async function firewalledLinkUp(): Promise<boolean> {
  const text = await run('ip', ['-4', '-o', 'addr', 'show', 'dev', fw.hostSide.link]).catch(() => '');
  return text.includes(` ${fw.hostSide.address}/${fw.prefixLength} `);
}

async function linkExists(name: string): Promise<boolean> {
  return fs.access(`/sys/class/net/${name}`).then(
    () => true,
    () => false,
  );
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: CHILD_ENV, timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${String(stderr).trim() || error.message}`));
      else resolve(String(stdout));
    });
  });
}

import type { AgentPlatform } from '../domain/agents.contract.js';
import type { AgentOsSupport } from '../domain/essential-eight.js';
import { hasEnded, type ReleaseCycle, releaseCycles } from '../scanner/vulndb/eol.js';

/**
 * An agent's operating system (as osquery named it: "Microsoft Windows 11 Pro 10.0.22631",
 * "Ubuntu 22.04.4 LTS", "Debian GNU/Linux 12 (bookworm)") against the end-of-life data the scanner
 * uses (endoflife.date, lambdas/scanner/vulndb/eol.ts), on `today` (YYYY-MM-DD). Undefined when the
 * data does not cover it (macOS, other distributions) or the name gives no release.
 */
export function agentOsSupport(platform: AgentPlatform, osVersion: string, today: string): AgentOsSupport | undefined {
  const cycle = platform === 'windows' ? windowsCycle(osVersion) : platform === 'linux' ? linuxCycle(osVersion) : undefined;
  if (!cycle) return undefined;
  const name = cycle.product === 'windows' && !/windows/i.test(cycle.name) ? `Windows ${cycle.name}` : cycle.name;
  return { name, eol: cycle.eol, ended: hasEnded(cycle, today) };
}

function linuxCycle(osVersion: string): ReleaseCycle | undefined {
  const find = (product: string, id: string) => releaseCycles(product).find((cycle) => cycle.cycle === id);
  const ubuntu = /\bubuntu\s+(\d{2}\.\d{2})/i.exec(osVersion);
  if (ubuntu) return find('ubuntu', ubuntu[1]!);
  const debian = /\bdebian\b\D*(\d{1,2})\b/i.exec(osVersion);
  if (debian) return find('debian', debian[1]!);
  const centos = /\bcentos\b\D*(\d{1,2})\b/i.exec(osVersion);
  if (centos) return find('centos', centos[1]!);
  const rhel = /\b(?:red hat enterprise linux|rhel)\b\D*(\d{1,2})\b/i.exec(osVersion);
  if (rhel) return find('rhel', rhel[1]!);
  return undefined;
}

/**
 * Windows Server by its year ("2012 R2" → 2012-r2); Windows 10 and 11 by build number, whose release
 * has separate dates for Home/Pro (W) and Enterprise/Education (E) and for the LTSC editions.
 */
function windowsCycle(osVersion: string): ReleaseCycle | undefined {
  const server = /\bwindows server (\d{4})(\s+r2)?/i.exec(osVersion);
  if (server) {
    const id = `${server[1]!}${server[2] ? '-r2' : ''}`;
    const cycles = releaseCycles('windows-server');
    return cycles.find((cycle) => cycle.cycle === id) ?? cycles.find((cycle) => cycle.cycle.startsWith(`${id}-`) && !/-(sac|ac)$/.test(cycle.cycle));
  }
  const build = /\b10\.0\.(\d{5})\b/.exec(osVersion)?.[1];
  if (!build) return undefined;
  const edition = /\b(?:ltsc|ltsb)\b/i.test(osVersion) ? 'lts' : /\b(?:enterprise|education)\b/i.test(osVersion) ? 'e' : 'w';
  const sameBuild = releaseCycles('windows').filter((cycle) => cycle.latest?.startsWith(`10.0.${build}`));
  const editionOf = (id: string) => (/-lts$/.test(id) ? 'lts' : /-e$/.test(id) ? 'e' : /-w$/.test(id) ? 'w' : 'any');
  return sameBuild.find((cycle) => editionOf(cycle.cycle) === edition && !/-iot-/.test(cycle.cycle)) ?? sameBuild.find((cycle) => editionOf(cycle.cycle) === 'any');
}

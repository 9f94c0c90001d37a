import type dnsPacket from 'dns-packet';
import { serveDns } from '../../support/dns-server.js';

/** What a name answers: addresses by family, or an alias; a function of how often the name was asked. */
export type Answer = { a?: string[]; aaaa?: string[]; cname?: string };
export type Script = Record<string, Answer | ((asked: number) => Answer)>;

export interface ScriptedDns {
  port: number;
  /** Every question, in order: name and type. */
  queries: { name: string; type: string }[];
  close(): Promise<void>;
}

/**
 * An authoritative DNS server on 127.0.0.1 whose answers may change between look-ups (DNS
 * rebinding): each name's answer is computed from how many A questions it has had so far.
 * CNAMEs are followed within the script; unknown names are NXDOMAIN. Nothing is forwarded.
 */
export async function startScriptedDns(script: Script): Promise<ScriptedDns> {
  const entries = new Map(Object.entries(script).map(([name, answer]) => [name.toLowerCase(), answer]));
  const askedA = new Map<string, number>();
  const queries: ScriptedDns['queries'] = [];

  const answerOf = (name: string, count: boolean): Answer | undefined => {
    const entry = entries.get(name);
    if (!entry) return undefined;
    if (typeof entry !== 'function') return entry;
    const asked = askedA.get(name) ?? 0;
    if (count) askedA.set(name, asked + 1);
    return entry(asked);
  };

  const server = await serveDns((question) => {
    queries.push({ name: question.name, type: question.type });
    const answers: dnsPacket.Answer[] = [];
    let name = question.name.toLowerCase().replace(/\.$/, '');
    let found = entries.has(name);
    for (let hops = 0; hops < 8; hops += 1) {
      const answer = answerOf(name, question.type === 'A');
      if (!answer) break;
      if (answer.cname) {
        answers.push({ name, type: 'CNAME', class: 'IN', ttl: 0, data: answer.cname });
        name = answer.cname.toLowerCase();
        found = found && entries.has(name);
        continue;
      }
      const data = question.type === 'A' ? answer.a : question.type === 'AAAA' ? answer.aaaa : undefined;
      for (const address of data ?? []) answers.push({ name, type: question.type as 'A' | 'AAAA', class: 'IN', ttl: 0, data: address });
      break;
    }
    return { answers, found };
  });
  return { ...server, queries };
}

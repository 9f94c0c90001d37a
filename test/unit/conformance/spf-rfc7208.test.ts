/**
 * The openspf RFC 7208 test suite (../shared/conformance/spf) through the scanner's SPF evaluation:
 * each scenario's zone data is served by a loopback DNS server, asked through the scanner's own DNS
 * client and the email probe's SPF adapter, and the evaluation is judged by analyzeSpf.
 *
 * Rampart evaluates a domain's policy, not one message: it has no sender IP. So a case agrees when
 * the scanner raises a permerror finding exactly when the suite expects permerror, a temperror
 * finding exactly when it expects temperror, "no SPF record" when it expects none, and no error
 * finding at all when it expects pass, fail, softfail or neutral (which of the four needs the IP).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tryQuery } from '../../../lambdas/scanner/checks/dns/lookup.js';
import { spfDns } from '../../../lambdas/scanner/checks/email/email.probe.js';
import { analyzeSpf, evaluateSpf } from '../../../lambdas/scanner/checks/email/spf.js';
import { createDnsClient } from '../../../lambdas/scanner/net/dns-client.js';
import { startZoneServer, type ZoneRecord, type ZoneServer } from '../../support/zone-server.js';
import { conformanceFolder } from './conformance-data.js';

type SuiteResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'permerror' | 'temperror';
interface SuiteCase {
  description?: string;
  helo: string;
  host: string;
  mailfrom: string;
  result: SuiteResult | SuiteResult[];
}
type ZoneEntry = 'TIMEOUT' | Record<string, string | string[] | [number, string]>;
interface Scenario {
  description: string;
  tests: Record<string, SuiteCase>;
  zonedata: Record<string, ZoneEntry[]>;
}

/** What a domain-policy evaluator can say: the error it raises, no SPF record, or no error (pass/fail/softfail/neutral). */
type Outcome = 'permerror' | 'temperror' | 'none' | 'no error';

const outcomeOf = (result: SuiteResult): Outcome => (result === 'permerror' || result === 'temperror' || result === 'none' ? result : 'no error');

/**
 * Cases the scanner cannot map, or answers differently on purpose, each with its reason. The
 * test fails if one of them starts to agree (the decision is then stale) or changes its answer.
 */
const NOT_MAPPABLE: Record<string, string> = {
  toolonglabel: 'the mail-from domain has a 64-character label: a receiver answers none before any lookup, and the scanner is only ever given a valid domain to audit',
  emptylabel: 'the mail-from domain has an empty label (A...example.com): not a domain name, so nothing a domain audit is given',
  'helo-not-fqdn': 'the identity is a HELO name that is not a domain (A2345678): nothing a domain audit is given',
  'helo-domain-literal': 'the identity is an address literal ([1.2.3.5]), not a domain',
  'domain-literal': 'the mail-from domain is an address literal (foo@[1.2.3.5]), not a domain',
};
const DECISIONS: Record<string, { ours: Outcome; reason: string }> = {
  'include-at-limit': {
    ours: 'permerror',
    reason:
      'depends on the sender IP: for 1.2.3.4 the first "a" matches and evaluation stops at 1 lookup (pass); for every sender it does not match, the walk reaches mx as the 11th lookup and ends in permerror. A domain-policy evaluator cannot decide which sender it is, and reports the limit the record exceeds.',
  },
};

const PERMERROR_FINDINGS = new Set([
  'email.spf.multiple-records',
  'email.spf.syntax-error',
  'email.spf.too-many-lookups',
  'email.spf.too-many-void-lookups',
  'email.spf.include-loop',
  'email.spf.include-missing',
]);
const TEMPERROR_FINDINGS = new Set(['email.spf.lookup-failed', 'email.spf.temporary-error']);

/** The code points of the suite's "\xNN" escapes are bytes; anything wider goes as UTF-8. */
const bytes = (text: string) => Buffer.from(text, [...text].every((c) => c.charCodeAt(0) < 256) ? 'latin1' : 'utf8');

/**
 * The suite's zone data as DNS records, with pyspf's conventions (test/testspf.py, which the
 * suite is written against): a name's SPF-type records are also its TXT records unless it lists
 * TXT records of its own ("NONE" = an explicit empty set); TIMEOUT makes every question about the
 * name time out, except for a type whose records are listed before it. The SPF type itself (99)
 * is not served: RFC 7208 §3.1 retired it and the scanner never asks for it.
 */
function zoneFrom(zonedata: Scenario['zonedata']): { records: ZoneRecord[]; timesOut: (name: string, type: string) => boolean } {
  const records: ZoneRecord[] = [];
  const answeredBeforeTimeout = new Map<string, Set<string>>();
  for (const [owner, entries] of Object.entries(zonedata)) {
    const name = owner.toLowerCase().replace(/\.$/, '');
    const ownTxt = entries.some((entry) => typeof entry === 'object' && 'TXT' in entry);
    const timeout = entries.indexOf('TIMEOUT');
    if (timeout >= 0) {
      const before = entries.slice(0, timeout).flatMap((entry) => (typeof entry === 'object' ? Object.entries(entry).filter(([, v]) => v !== 'NONE').map(([t]) => t) : []));
      answeredBeforeTimeout.set(name, new Set(before.filter((type) => type !== 'SPF')));
    }
    const generated: ZoneRecord[] = [];
    for (const entry of entries) {
      if (entry === 'TIMEOUT') continue;
      for (const [type, value] of Object.entries(entry)) {
        if (value === 'NONE') continue;
        const txt = (): ZoneRecord => ({ name, type: 'TXT', ttl: 60, data: (Array.isArray(value) ? value : [value]).map((part) => bytes(String(part))) as dnsPacket.TxtData });
        if (type === 'SPF') {
          if (!ownTxt) generated.push(txt());
        } else if (type === 'TXT') records.push(txt());
        else if (type === 'MX') {
          const [preference, exchange] = value as [number, string];
          records.push({ name, type: 'MX', ttl: 60, data: { preference, exchange } });
        } else records.push({ name, type, ttl: 60, data: String(value) } as ZoneRecord);
      }
    }
    records.push(...generated);
  }
  return { records, timesOut: (name, type) => answeredBeforeTimeout.get(name)?.has(type) === false };
}

/** The domain whose policy the case is about: the mail-from domain, or the HELO name without one. */
const domainOf = (test: SuiteCase) => (test.mailfrom ? test.mailfrom.slice(test.mailfrom.lastIndexOf('@') + 1) : test.helo);

const folder = conformanceFolder('spf', 'RFC 7208 suite');
const scenarios: Scenario[] = folder ? (JSON.parse(readFileSync(join(folder, 'rfc7208-tests.json'), 'utf8')) as Scenario[]) : [];

const tally = { mappable: 0, agree: 0, permerrorExpected: 0, permerrorAgree: 0, noErrorExpected: 0, noErrorAgree: 0 };

describe.skipIf(!folder)('RFC 7208 test suite through the SPF evaluation', () => {
  afterAll(() => {
    console.log(
      `RFC 7208: ${tally.agree}/${tally.mappable} mappable cases agree; expecting permerror ${tally.permerrorAgree}/${tally.permerrorExpected}; no false error on pass/fail/softfail/neutral ${tally.noErrorAgree}/${tally.noErrorExpected}; ${Object.keys(DECISIONS).length} written decisions, ${Object.keys(NOT_MAPPABLE).length} not mappable`,
    );
  });

  for (const scenario of scenarios) {
    describe(scenario.description, () => {
      let server: ZoneServer;
      beforeAll(async () => {
        const zone = zoneFrom(scenario.zonedata);
        server = await startZoneServer({ records: zone.records, silentWhen: zone.timesOut });
      });
      afterAll(() => server.close());

      for (const [id, test] of Object.entries(scenario.tests)) {
        const accepted = [...new Set((Array.isArray(test.result) ? test.result : [test.result]).map(outcomeOf))];
        it.skipIf(id in NOT_MAPPABLE)(`${id}: ${accepted.join(' or ')} for ${domainOf(test)}`, async () => {
          // Prepare
          const client = createDnsClient({ resolvers: [{ host: server.host, port: server.port }], timeoutMs: 250 });
          const dns = spfDns((name, type) => tryQuery(client, name, type));

          // Act
          const evaluation = await evaluateSpf(domainOf(test), dns);
          const ids = analyzeSpf(evaluation, { dmarcEnforced: false }).map((f) => f.id);
          const raised: Outcome[] = [
            ...(ids.some((f) => PERMERROR_FINDINGS.has(f)) ? ['permerror' as const] : []),
            ...(ids.some((f) => TEMPERROR_FINDINGS.has(f)) ? ['temperror' as const] : []),
            ...(ids.includes('email.spf.missing') ? ['none' as const] : []),
          ];
          const outcome: Outcome | Outcome[] = raised.length === 0 ? 'no error' : raised.length === 1 ? raised[0]! : raised;

          // Assess
          const agrees = typeof outcome === 'string' && accepted.includes(outcome);
          tally.mappable++;
          if (agrees) tally.agree++;
          if (accepted.length === 1 && accepted[0] === 'permerror') {
            tally.permerrorExpected++;
            if (agrees) tally.permerrorAgree++;
          }
          if (accepted.length === 1 && accepted[0] === 'no error') {
            tally.noErrorExpected++;
            if (agrees) tally.noErrorAgree++;
          }
          const decision = DECISIONS[id];
          if (decision) {
            expect(agrees, `${id} now agrees: remove its decision`).toBe(false);
            expect(outcome, `${id}: ${decision.reason}`).toEqual(decision.ours);
          } else {
            expect(accepted, `${id} (${test.description ?? scenario.description}); errors: ${JSON.stringify(evaluation.errors)}`).toContainEqual(outcome);
          }
        });
      }
    });
  }
});

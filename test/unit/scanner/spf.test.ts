import { describe, expect, it } from 'vitest';
import { analyzeSpf, evaluateSpf, parseSpf, type SpfDns, type SpfDnsResult } from '../../../lambdas/scanner/checks/email/spf.js';
import { spfFixtures, type SpfFixture } from '../../fixtures/dns/spf.js';

/** SpfDns over a fixture: names in no map are NXDOMAIN; the log records every question. */
function fixtureDns(fixture: SpfFixture, log: string[] = []): SpfDns {
  const known = new Set([...Object.keys(fixture.txt), ...Object.keys(fixture.addresses ?? {}), ...Object.keys(fixture.mx ?? {})]);
  const answer = (name: string, values: string[] | undefined): SpfDnsResult =>
    known.has(name) ? { rcode: 'NOERROR', values: values ?? [] } : { rcode: 'NXDOMAIN', values: [] };
  return {
    txt: async (name) => (log.push(`TXT ${name}`), answer(name, fixture.txt[name])),
    addresses: async (name) => (log.push(`A ${name}`), answer(name, fixture.addresses?.[name])),
    mx: async (name) => (log.push(`MX ${name}`), answer(name, fixture.mx?.[name])),
  };
}

const judged = async (domain: string, fixture: SpfFixture, dmarcEnforced = false) => {
  const evaluation = await evaluateSpf(domain, fixtureDns(fixture));
  return { evaluation, findings: analyzeSpf(evaluation, { dmarcEnforced }).map((f) => [f.id, f.severity]) };
};

describe('SPF record parsing', () => {
  it('reads qualifiers, mechanisms with domains and prefixes, and modifiers', () => {
    const { terms, errors } = parseSpf('v=spf1 -ip4:192.0.2.0/24 ~a:mail.example.com/28 mx//64 include:_spf.example.com exp=explain.example.com redirect=_spf.other.example ?all');
    expect(errors).toEqual([]);
    expect(terms.map((t) => [t.kind, t.qualifier, t.name, t.value])).toEqual([
      ['mechanism', '-', 'ip4', '192.0.2.0'],
      ['mechanism', '~', 'a', 'mail.example.com'],
      ['mechanism', '+', 'mx', undefined],
      ['mechanism', '+', 'include', '_spf.example.com'],
      ['modifier', undefined, 'exp', 'explain.example.com'],
      ['modifier', undefined, 'redirect', '_spf.other.example'],
      ['mechanism', '?', 'all', undefined],
    ]);
  });

  it.each([
    ['v=spf1 a:111.222.33.44 -all', '"111.222.33.44" is not a domain name (it must end in a dot and a top label such as .com) in "a:111.222.33.44"'],
    ['v=spf1 a:example.com:8080 -all', '"example.com:8080" is not a domain name (it must end in a dot and a top label such as .com) in "a:example.com:8080"'],
    ['v=spf1 a/33 -all', 'IPv4 prefix above /32 in "a/33"'],
    ['v=spf1 ip4:1.2.3.4//32 -all', 'Invalid IPv4 address in "ip4:1.2.3.4//32"'],
    ['v=spf1 ip4:1.2.3.4/032 -all', 'Invalid IPv4 prefix length /032 in "ip4:1.2.3.4/032"'],
    ['v=spf1 exists:%(ir).sbl.example.com ?all', 'Invalid macro "%(ir)." (a literal % is written %%) in "exists:%(ir).sbl.example.com"'],
    ['v=spf1 exists:foo%.sbl.example.com ?all', 'Invalid macro "%.sbl." (a literal % is written %%) in "exists:foo%.sbl.example.com"'],
    ['v=spf1 -all exp=%{r}.example.com', 'Macro letter "r" is not allowed here in "exp=%{r}.example.com"'],
    ['v=spf1 a:mail.example.com\rptr -all', 'Character "\\r" is not allowed (printable ASCII only, terms separated by spaces) in "a:mail.example.com\rptr"'],
  ])('rejects %j as RFC 7208 does', (record, error) => {
    expect(parseSpf(record).errors).toEqual([error]);
  });

  it('accepts a "/" and a ":" inside a domain, and macros in domains', () => {
    const { terms, errors } = parseSpf('v=spf1 a:foo:bar/baz.example.com mx:mail.example.com/24//64 exists:%{i}.%{l2r-}.user.%{d2} a:macro%%percent%_%-x.example.com -all');
    expect(errors).toEqual([]);
    expect(terms.map((t) => t.value)).toEqual(['foo:bar/baz.example.com', 'mail.example.com', '%{i}.%{l2r-}.user.%{d2}', 'macro%%percent%_%-x.example.com', undefined]);
  });

  it('collects unknown terms, bad addresses and repeated redirects as errors', () => {
    expect(parseSpf('v=spf1 ip4:192.0.2.300 inlcude:x.example ip6:2001:db8::/129 redirect=a.example redirect=b.example -all').errors).toEqual([
      'Invalid IPv4 address in "ip4:192.0.2.300"',
      'Unknown term "inlcude:x.example"',
      'IPv6 prefix above /128 in "ip6:2001:db8::/129"',
      '"redirect=" appears more than once',
    ]);
  });
});

describe('SPF evaluation and analysis', () => {
  it('counts 11 DNS-querying terms across the include tree and reports too many lookups', async () => {
    const { evaluation, findings } = await judged('busy.example', spfFixtures.elevenLookups);
    expect(evaluation.lookups).toBe(11);
    expect(findings).toEqual([['email.spf.too-many-lookups', 'medium']]);
    expect(evaluation.allQualifier).toBe('-');
  });

  it('accepts exactly 10 lookups', async () => {
    const { evaluation, findings } = await judged('full.example', spfFixtures.tenLookups);
    expect([evaluation.lookups, findings]).toEqual([10, []]);
  });

  it('counts lookups that find nothing and reports more than two', async () => {
    const { evaluation, findings } = await judged('void.example', spfFixtures.voidLookups);
    expect([evaluation.lookups, evaluation.voidLookups]).toEqual([3, 3]);
    expect(findings).toEqual([['email.spf.too-many-void-lookups', 'medium']]);
  });

  it('detects an include loop without looping', async () => {
    const { evaluation, findings } = await judged('loop.example', spfFixtures.loop);
    expect(findings).toEqual([['email.spf.include-loop', 'medium']]);
    expect(evaluation.errors.map((e) => e.message)).toEqual(['_spf.loop.example includes loop.example, which is already being evaluated (loop.example → _spf.loop.example → loop.example)']);
  });

  it('rates +all high: forged mail passes', async () => {
    expect((await judged('open.example', spfFixtures.passAll)).findings).toEqual([['email.spf.pass-all', 'high']]);
  });

  it('rates ?all and a record without all as medium', async () => {
    expect((await judged('neutral.example', spfFixtures.neutralAll)).findings).toEqual([['email.spf.neutral-all', 'medium']]);
    expect((await judged('noall.example', spfFixtures.noAll)).findings).toEqual([['email.spf.no-all', 'medium']]);
  });

  it('rates ~all low without an enforcing DMARC policy and info with one', async () => {
    expect((await judged('soft.example', spfFixtures.softfail, false)).findings).toEqual([['email.spf.softfail', 'low']]);
    expect((await judged('soft.example', spfFixtures.softfail, true)).findings).toEqual([['email.spf.softfail', 'info']]);
  });

  it('follows redirect= for the all qualifier and counts it as a lookup', async () => {
    const { evaluation, findings } = await judged('brand.example', spfFixtures.redirect);
    expect([evaluation.allQualifier, evaluation.lookups, findings]).toEqual(['-', 2, []]);
    expect(evaluation.includes).toMatchObject([{ via: 'redirect', domain: '_spf.parent.example', includes: [{ via: 'include', domain: 'spf.protection.outlook.com' }] }]);
  });

  it('reports a redirect or include to a domain without SPF as a permanent error', async () => {
    expect((await judged('lost.example', spfFixtures.redirectMissing)).findings).toEqual([
      ['email.spf.include-missing', 'medium'],
      ['email.spf.no-all', 'medium'],
    ]);
    expect((await judged('broken.example', spfFixtures.includeWithoutSpf)).findings).toEqual([['email.spf.include-missing', 'medium']]);
  });

  it('reports two SPF records and judges neither', async () => {
    const { evaluation, findings } = await judged('twice.example', spfFixtures.multiple);
    expect(findings).toEqual([['email.spf.multiple-records', 'medium']]);
    expect([evaluation.record, evaluation.records.length]).toEqual([undefined, 2]);
  });

  it('reports a domain without SPF as medium', async () => {
    expect((await judged('nospf.example', spfFixtures.missing)).findings).toEqual([['email.spf.missing', 'medium']]);
  });

  it('flags ptr as deprecated and counts it', async () => {
    const { evaluation, findings } = await judged('ptr.example', spfFixtures.ptr);
    expect([evaluation.lookups, findings]).toEqual([1, [['email.spf.ptr', 'low']]]);
  });

  it('reports syntax errors', async () => {
    expect((await judged('typo.example', spfFixtures.syntax)).findings).toEqual([['email.spf.syntax-error', 'medium']]);
  });

  it('reports the same domain included twice', async () => {
    const { evaluation, findings } = await judged('dup.example', spfFixtures.duplicate);
    expect(findings).toEqual([['email.spf.duplicate-include', 'low']]);
    expect(evaluation.lookups).toBe(3);
  });

  it('counts terms with macros without resolving them', async () => {
    const log: string[] = [];
    const evaluation = await evaluateSpf('macro.example', fixtureDns(spfFixtures.macros, log));
    expect([evaluation.lookups, evaluation.voidLookups, log]).toEqual([2, 0, ['TXT macro.example']]);
  });

  it("reads the range's record as softfail with two lookups", async () => {
    const { evaluation, findings } = await judged('example.test', spfFixtures.range);
    expect([evaluation.record, evaluation.lookups, evaluation.voidLookups, evaluation.allQualifier]).toEqual(['v=spf1 mx a ~all', 2, 0, '~']);
    expect(findings).toEqual([['email.spf.softfail', 'low']]);
  });

  it('reports an include that times out as a temporary error', async () => {
    // Prepare
    const dns: SpfDns = {
      txt: async (name) => (name === 'slow-include.example' ? { rcode: 'NOERROR', values: ['v=spf1 include:_spf.slow.example -all'] } : { error: 'ETIMEOUT' }),
      addresses: async () => ({ rcode: 'NOERROR', values: [] }),
      mx: async () => ({ rcode: 'NOERROR', values: [] }),
    };

    // Act
    const evaluation = await evaluateSpf('slow-include.example', dns);

    // Assess
    expect(analyzeSpf(evaluation, { dmarcEnforced: false }).map((f) => [f.id, f.severity])).toEqual([['email.spf.temporary-error', 'low']]);
    expect(evaluation.errors).toEqual([{ code: 'dns-error', message: 'include:_spf.slow.example: ETIMEOUT' }]);
  });

  it('reports a failed TXT lookup as unknown, not as missing', async () => {
    const failing: SpfDns = { txt: async () => ({ error: 'ETIMEOUT' }), addresses: async () => ({ error: 'ETIMEOUT' }), mx: async () => ({ error: 'ETIMEOUT' }) };
    const evaluation = await evaluateSpf('slow.example', failing);
    expect(analyzeSpf(evaluation, { dmarcEnforced: false }).map((f) => [f.id, f.severity])).toEqual([['email.spf.lookup-failed', 'info']]);
  });
});

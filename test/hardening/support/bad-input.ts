import fc from 'fast-check';

/**
 * fast-check arbitraries for input nobody should send: wrong types, missing and extra fields, huge
 * strings, unicode edge cases (lone surrogates, NUL, RTL overrides, emoji, BOM), invalid JSON and
 * invalid UTF-8, wrong content types, oversized bodies, odd path segments and query strings.
 */

/** Strings that have broken parsers, databases and templates before. */
export const EDGE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFFy',
  '\uFEFF',
  '\u202Eevil\u202C',
  '\u200F\u200E',
  '\u2028\u2029',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  'Z̷̡̛̺͓ͅa̷̛͕l̶g̸o̵',
  'ｅｘａｍｐｌｅ．ｃｏｍ',
  'ехаmple.com',
  'ß',
  'İ',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR '1'='1' --",
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9'.repeat(400),
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  'http://169.254.169.254/latest/meta-data/',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  'file:///etc/passwd',
  '\\\\server\\share',
  'A'.repeat(5_000),
  '💥'.repeat(3_000),
  '\u0000'.repeat(1_000),
];

/** Values no formatted field (email, URL, mobile number, code, domain, plan id) may take. */
export const MALFORMED: readonly string[] = [
  '', ' ', 'a b', 'not a thing', '\u0000', '\uD800', 'x\uDBFFy', '\u202Eevil\u202C', '👩‍👩‍👧‍👦', '<script>alert(1)</script>', "' OR '1'='1' --",
  'javascript:alert(1)', 'file:///etc/passwd', '%00', '${jndi:ldap://127.0.0.1/a}', '..\\..\\windows\\win.ini', 'A'.repeat(5_000), '💥'.repeat(3_000),
];

/** Short strings of any kind, and the edge cases above. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('A', 'é', '\u0000', '😀', '\uD800'), fc.integer({ min: 300, max: 20_000 })).map(([c, n]) => c.repeat(n)) },
);

/** Any JSON-able value of any type, shallow. */
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  oddString,
);

/** A value of the wrong type for almost any field: scalars, arrays and objects, nested a little. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 3_000 }).map((depth) => nested(depth)) },
);

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Field names a handler might read, the prototype's own names, and anything. */
export const fieldName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'email', 'webUrl', 'domain', 'auditId', 'userId', 'sub', 'planId', 'firstName', 'lastName', 'mobileNumber', 'verificationCode',
    'createAccount', 'role', 'isAdmin', 'status', 'tier', 'scansLimit', 'price', 'id', 'pk', 'sk', 'token', 'secret', 'reason',
    '__proto__', 'constructor', 'prototype', '', ' ', '\u0000', '$where', 'a.b', 'a[0]',
  ),
  fc.string({ maxLength: 12 }),
);

/** An object with any fields at all, of any types. */
export const oddObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(fieldName, oddValue, { maxKeys: 8 });

/** Texts that are not JSON (or not one JSON value), and JSON with traps in it. */
export const INVALID_JSON: readonly string[] = [
  '{',
  '}',
  '[',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '{a:1}',
  'NaN',
  'undefined',
  '\uFEFF{}',
  '{"a":1}{"b":2}',
  '/* comment */ {}',
  '{"a":"\\ud800"',
  '{"a":"\u0000"}x',
  '"unterminated',
  '01',
  '1.',
  '--1',
  '0x10',
  '[1,2',
  '{"a":1e999999}x',
  '\u0000',
  '[' .repeat(60_000),
  '{"a":'.repeat(10_000),
];

/** Valid JSON that carries traps: prototype keys, duplicate keys, extreme numbers, deep nesting. */
export const TRAP_JSON: readonly string[] = [
  '{"__proto__":{"isAdmin":true,"role":"admin"}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"email":"a@example.test","email":{"$ne":null}}',
  '{"a":1e308,"b":-1e308,"c":123456789012345678901234567890}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  '"just a string"',
  '12345',
  'true',
  'null',
  '[]',
  '[{}]',
  '{}',
];

/** Bodies that are not UTF-8 (or are, with invisible traps in front). */
export const RAW_BYTES: readonly Buffer[] = [
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from('{"email":"\u0000@example.test"}', 'utf16le'),
  Buffer.alloc(64, 0),
];

export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/octet-stream',
  '*/*',
  'application/merge-patch+json',
  '',
  undefined,
);

/** Larger than a route's body limit (the API's 64 KiB unless the manifest gives the route its own). */
export const oversizedBody = (limitBytes: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: limitBytes + 1, max: limitBytes + 240 * 1024 }), fc.constantFrom('a', '{', '😀'))
    .map(([bytes, filler]) => `{"x":"${filler.repeat(Math.ceil(bytes / Buffer.byteLength(filler)))}"}`);

/** A body that is bad for any route that reads one: not JSON, not an object, or an object of nonsense. */
export const badBody: fc.Arbitrary<{ body: string | Buffer; label: string }> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...INVALID_JSON).map((body) => ({ body, label: 'invalid JSON' })) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }).filter((text) => !parses(text)).map((body) => ({ body, label: 'invalid JSON' })) },
  { weight: 2, arbitrary: fc.constantFrom(...TRAP_JSON).map((body) => ({ body, label: 'JSON with traps' })) },
  { weight: 2, arbitrary: scalar.map((value) => ({ body: JSON.stringify(value), label: 'JSON of the wrong type' })) },
  { weight: 4, arbitrary: oddObject.map((value) => ({ body: JSON.stringify(value), label: 'object of nonsense' })) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_BYTES).map((body) => ({ body, label: 'not UTF-8' })) },
  { weight: 1, arbitrary: fc.constant({ body: '', label: 'empty body' }) },
);

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A known-good body broken on purpose: one required field removed or given a value of the wrong
 * type (or, for fields whose format is checked, a malformed string), plus any extra fields.
 */
export function brokenSeed(seed: Readonly<Record<string, unknown>>, required: readonly string[], formatted: readonly string[]): fc.Arbitrary<{ body: string; label: string }> {
  const wrongType = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.array(scalar, { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), scalar, { maxKeys: 3 }),
    fc.constantFrom('', '   ', 'A'.repeat(5_000)),
  );
  // Strings no email, URL, phone number, code, domain or plan id can be: a space inside, or nothing at all.
  const malformed = fc.oneof(
    fc.constantFrom(...MALFORMED),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => `\u0000 ${s} \u0000`),
  );
  return fc
    .record({
      field: fc.constantFrom(...required),
      how: fc.constantFrom('remove', 'wrong type', 'malformed'),
      wrong: wrongType,
      bad: malformed,
      extra: fc.dictionary(fieldName, oddValue, { maxKeys: 3 }),
    })
    .map(({ field, how, wrong, bad, extra }) => {
      const body: Record<string, unknown> = { ...extra, ...seed };
      if (how === 'remove') delete body[field];
      else if (how === 'malformed' && formatted.includes(field)) body[field] = bad;
      // A value of the field's own type is no wrong type (false is a fine preference), but an empty
      // or oversized string is wrong for every required text field.
      else body[field] = typeof wrong === typeof seed[field] && typeof wrong !== 'string' ? null : wrong;
      return { body: JSON.stringify(body), label: `${field}: ${how}` };
    });
}

/** No lone surrogate (encodeURIComponent throws on one); String.prototype.isWellFormed is newer than the compiler's lib. */
const wellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

/** Path segments a router or a key builder may choke on, already percent-encoded (or deliberately not). */
export const oddPathSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF%FE', '%00', 'a%00b', '%2F', '%2f..%2f', '%2e%2e', '..', '.', '%20', '%0A', '%0D%0Aset-cookie:x=1',
      '~', '%27%20OR%201%3D1', '%3Cscript%3E', '%25', '%2525', 'null', 'undefined', '0', '-1', '1e309', '__proto__', 'constructor',
      'AUDIT%23x', 'USER%23x', 'x%23%23AUDIT', '*', '%2A', 'a;b', 'a,b', 'a=b', '%F0%9F%98%80', '%E2%80%AE', 'cs_test_x', 'x.svg', '.svg',
      '00000000-0000-0000-0000-000000000000', 'example.test', 'www.example.test', '127.0.0.1', '%5B%3A%3A1%5D',
    ),
  },
  { weight: 2, arbitrary: oddString.filter((s) => s.length > 0 && wellFormed(s)).map((s) => encodeURIComponent(s).slice(0, 6_000)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s)) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 6_000 }).map((n) => 'a'.repeat(n)) },
);

/** A query string of odd keys and values, sometimes not even well formed. */
export const oddQuery: fc.Arbitrary<string> = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom('limit', 'cursor', 'token', 'theme', 'size', 'style', 'domain', 'auditId', '__proto__'), fc.string({ maxLength: 8 })), oddString, { maxKeys: 4 }).map(
    (params) =>
      Object.entries(params)
        .filter(([key, value]) => wellFormed(key) && wellFormed(value))
        .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value).slice(0, 3_000)}`)
        .join('&'),
  ),
  fc.constantFrom('%', '%%%', '&&&', '=', 'limit=-1', 'limit=0', 'limit=1e9', 'limit=NaN', 'limit=1&limit=2', 'cursor=%ED%A0%80', 'token=', 'a[b]=c', 'size=99999', '%00=%00'),
);

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHibpClient } from '../../../lambdas/scanner/net/hibp-client.js';
import { countInRange, fetchPasswordRange, isPasswordPwned, isRangePrefix, parseRange, passwordRange, PwnedPasswordsError } from '../../../lambdas/scanner/pwned-passwords.js';
import { TEST_API_KEY, TEST_USER_AGENT } from '../../fixtures/hibp/breaches.js';
import { type HibpServer, startHibpServer } from '../../support/hibp-server.js';

let server: HibpServer;

beforeAll(async () => {
  server = await startHibpServer({
    apiKey: TEST_API_KEY,
    passwords: { 'P@ssw0rd': 52579, 'correct horse battery staple': 384 },
    paddingWithSuffixesOf: ['Tr0ub4dor&3-unique-enough'],
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

describe('Pwned Passwords k-anonymity', () => {
  it('splits the SHA-1 into the 5-character prefix it sends and the suffix it keeps', () => {
    // Troy Hunt's published example: SHA-1("P@ssw0rd") = 21BD12DC183F740EE76F27B78EB39C8AD972A757.
    expect(passwordRange('P@ssw0rd')).toEqual({ prefix: '21BD1', suffix: '2DC183F740EE76F27B78EB39C8AD972A757' });
  });

  it('finds a breached password and its count, sending only the prefix and asking for padding', async () => {
    // Act
    const result = await isPasswordPwned('P@ssw0rd', { baseUrl: server.passwordsBaseUrl, userAgent: TEST_USER_AGENT });
    // Assess
    expect(result).toEqual({ pwned: true, count: 52579 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.path).toBe('/range/21BD1');
    expect(request!.headers['add-padding']).toBe('true');
    expect(request!.headers['user-agent']).toBe(TEST_USER_AGENT);
    expect(request!.headers['hibp-api-key']).toBeUndefined();
    // Nothing of the password or the rest of its hash left the machine.
    expect(JSON.stringify(request)).not.toMatch(/P@ssw0rd|2DC183F740EE76F27B78EB39C8AD972A757/i);
  });

  it('reports a password no breach holds as not pwned, count 0', async () => {
    expect(await isPasswordPwned('a sentence nobody has used: 7f3e9c', { baseUrl: server.passwordsBaseUrl })).toEqual({ pwned: false, count: 0 });
  });

  it('never counts a padding line (count 0) as a match, even when it carries the password\'s own suffix', async () => {
    // Prepare: the server pads this prefix with the password's suffix at count 0.
    const { suffix } = passwordRange('Tr0ub4dor&3-unique-enough');
    // Act
    const result = await isPasswordPwned('Tr0ub4dor&3-unique-enough', { baseUrl: server.passwordsBaseUrl });
    // Assess
    expect(result).toEqual({ pwned: false, count: 0 });
    expect(countInRange(`${suffix}:0\r\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:3`, suffix)).toBe(0);
  });

  it('reads padded answers of 800 to 1000 CRLF lines', async () => {
    const response = await fetch(`${server.passwordsBaseUrl}/range/21BD1`, { headers: { 'add-padding': 'true' } });
    const lines = (await response.text()).split('\r\n');
    expect(lines.length).toBeGreaterThanOrEqual(800);
    expect(lines.length).toBeLessThanOrEqual(1000);
    expect(countInRange(lines.join('\r\n'), '2DC183F740EE76F27B78EB39C8AD972A757')).toBe(52579);
  });

  it('is offered by the HIBP client with its configured base URL', async () => {
    const client = createHibpClient({ apiKey: TEST_API_KEY, userAgent: TEST_USER_AGENT, passwordsBaseUrl: server.passwordsBaseUrl });
    expect(await client.isPasswordPwned('correct horse battery staple')).toEqual({ pwned: true, count: 384 });
    expect(server.requests[0]!.headers['user-agent']).toBe(TEST_USER_AGENT);
  });

  it('throws PwnedPasswordsError when the service cannot answer, so sign-up decides what to do', async () => {
    const closed = await startHibpServer({ apiKey: TEST_API_KEY });
    const url = closed.passwordsBaseUrl;
    await closed.close();
    await expect(isPasswordPwned('P@ssw0rd', { baseUrl: url })).rejects.toThrow(PwnedPasswordsError);
    await expect(isPasswordPwned('P@ssw0rd', { baseUrl: `${server.passwordsBaseUrl}/nowhere` })).rejects.toThrow('Pwned Passwords answered HTTP 404');
  });
});

describe('Pwned Passwords range', () => {
  it('reads a range answer into upper-case 35-hex suffixes with counts, padding and junk dropped', () => {
    const body = [
      '0018a45c4d1def81644b54ab7f969b88d65:1',
      '00D4F6E8FA6EECAD2A3AA415EEC418D38EC:0',
      'not-a-line',
      'ABCDEF:5',
      '011053FD0102E94D6AE2F8B83D76FAF94F6:12',
      '',
    ].join('\r\n');
    expect(parseRange(body)).toEqual([
      { suffix: '0018A45C4D1DEF81644B54AB7F969B88D65', count: 1 },
      { suffix: '011053FD0102E94D6AE2F8B83D76FAF94F6', count: 12 },
    ]);
  });

  it('takes exactly 5 hex characters as a prefix', () => {
    expect(['21BD1', '21bd1', '00000', 'fffff'].map(isRangePrefix)).toEqual([true, true, true, true]);
    expect(['21BD', '21BD12', 'XYZ12', '21B D', ''].map(isRangePrefix)).toEqual([false, false, false, false, false]);
  });

  it('fetches one range from the service, asking for padding, and drops the padding', async () => {
    const entries = await fetchPasswordRange('21bd1', { baseUrl: server.passwordsBaseUrl });
    expect(entries).toEqual([{ suffix: '2DC183F740EE76F27B78EB39C8AD972A757', count: 52579 }]);
    expect(server.requests.map((r) => [r.path, r.headers['add-padding']])).toEqual([['/range/21BD1', 'true']]);
  });

  it('refuses a malformed prefix without asking the service', async () => {
    await expect(fetchPasswordRange('21BD/', { baseUrl: server.passwordsBaseUrl })).rejects.toThrow(RangeError);
    expect(server.requests).toEqual([]);
  });
});

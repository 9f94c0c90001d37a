import { generateKeyPair, SignJWT } from 'jose';
import fc from 'fast-check';
import type { TestStack } from '../../support/local-stack.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Authorization headers that must not let anyone in: none, malformed, tokens signed by someone
 * else's key (RS256 and HS256), `alg: none`, a real token with a forged payload or a broken
 * signature, one for another audience, and one that has expired. Built from a real user's token.
 */
export async function forgedAuthorizations(t: TestStack, realToken: string): Promise<string[]> {
  const issuer = `${t.stack.endpoints.cognito}/${t.stack.userPool.userPoolId}`;
  const audience = t.stack.userPool.userPoolClientId;
  const [header, payload, signature] = realToken.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  const { privateKey } = await generateKeyPair('RS256');
  const foreign = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'RS256', kid: JSON.parse(Buffer.from(header, 'base64url').toString()).kid }).sign(privateKey);
  const hmac = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('a guessed secret of thirty-two bytes'));
  const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
  const otherUser = `${header}.${b64({ ...claims, sub: '00000000-0000-0000-0000-000000000000', email: 'someone@example.test' })}.${signature}`;
  const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
  const wrongAudience = await new SignJWT({ ...claims, aud: 'another-client' }).setProtectedHeader({ alg: 'RS256' }).setIssuer(issuer).sign(privateKey);
  const expired = await new SignJWT({ ...claims, aud: audience, iat: now - 7200, exp: now - 3600 }).setProtectedHeader({ alg: 'RS256' }).setIssuer(issuer).sign(privateKey);
  return [
    '',
    'Bearer',
    'Bearer ',
    'bearer null',
    'Bearer undefined',
    'Basic YWRtaW46YWRtaW4=',
    `Bearer ${'x'.repeat(2_000)}`,
    'Bearer a.b.c',
    `Bearer ${foreign}`,
    `Bearer ${hmac}`,
    `Bearer ${unsigned}`,
    `Bearer ${otherUser}`,
    `Bearer ${flipped}`,
    `Bearer ${wrongAudience}`,
    `Bearer ${expired}`,
    `Token ${realToken}`,
    realToken,
    `Bearer ${realToken}x`,
    `Bearer ${realToken.replace(/\./g, '..')}`,
  ];
}

/** Any of the forged authorizations, or a random string that merely looks like a header value. */
export const badAuthorization = (forged: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...forged) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`) },
  );

/** Headers by which a credentialed (webhook, agent, API token) caller might prove itself, with junk in them. */
export const badCredentialHeaders = (forged: readonly string[]): fc.Arbitrary<Record<string, string>> =>
  fc.record(
    {
      authorization: badAuthorization(forged),
      'stripe-signature': fc.constantFrom('', 't=1,v1=00', `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`, 'v1=', 'garbage', 't=,v1=,v0='),
      'x-agent-secret': fc.constantFrom('', 'secret', 'x'.repeat(300), '\u0000'.replace('\u0000', '%00')),
      'x-api-key': fc.constantFrom('', 'rk_test_0000', 'x'.repeat(300)),
    },
    { requiredKeys: [] },
  );

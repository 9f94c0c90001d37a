import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type WebhookVerifier = (secret: string, headers: Record<string, string | string[] | undefined>, rawBody: string, nowSeconds?: number) => boolean;

/**
 * The README's "Receiving the generic webhook" recipe, run as written: the ```js block that defines
 * verifyRampartSignature, its `import` given to it. A README that drifts from the signing fails the tests.
 */
export function readmeWebhookVerifier(): WebhookVerifier {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.includes('function verifyRampartSignature'));
  if (!block) throw new Error('README has no verifyRampartSignature recipe');
  const body = block.replace(/^import .*$/m, '').replace(/^export /m, '');
  return new Function('createHmac', 'timingSafeEqual', `${body}\nreturn verifyRampartSignature;`)(createHmac, timingSafeEqual) as WebhookVerifier;
}

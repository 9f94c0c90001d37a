// zod/mini: the same checks as the backend's config, at a few kB, so the landing page's first bundle stays small.
import { z } from 'zod/mini';

const envSchema = z.object({
  PRODUCT_NAME: z._default(z.string().check(z.trim(), z.minLength(1), z.maxLength(40)), 'Rampart'),
  /** Empty means the API is served from the site's own origin (CloudFront and `npm start` both do). */
  API_URL: z._default(z.union([z.literal(''), z.url()]), ''),
});

export type Env = z.output<typeof envSchema>;

/** The frontend's configuration, read and validated once; a bad value fails at start naming the key. */
function readEnv(): Env {
  const result = envSchema.safeParse({
    PRODUCT_NAME: import.meta.env.PRODUCT_NAME || undefined,
    API_URL: import.meta.env.VITE_API_URL || undefined,
  });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid frontend configuration: ${problems.join('; ')}`);
  }
  return result.data;
}

export const env = readEnv();

import { z } from 'zod';

const envSchema = z.object({
  PRODUCT_NAME: z.string().trim().min(1).max(40).default('Rampart'),
  /** Empty means the API is served from the site's own origin (CloudFront and `npm start` both do). */
  API_URL: z.union([z.literal(''), z.url()]).default(''),
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

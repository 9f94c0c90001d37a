import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import * as z from 'zod';

const root = fileURLToPath(new URL('.', import.meta.url));

// The same checks as the backend's config (lambdas/config.ts), run here so the bundle needs none.
const envSchema = z.object({
  PRODUCT_NAME: z.string().trim().min(1).max(40).default('Rampart'),
  /** Empty means the API is served from the site's own origin (CloudFront and `npm start` both do). */
  VITE_API_URL: z.union([z.literal(''), z.url()]).default(''),
});

/**
 * The frontend's configuration (src/config/env.ts reads it), checked once when the bundle is built:
 * the same PRODUCT_NAME key the server reads (DESIGN.md), and VITE_API_URL from the environment or
 * frontend/.env files. A bad value fails the build naming the key.
 */
function frontendEnv(mode: string): z.output<typeof envSchema> {
  const result = envSchema.safeParse({
    PRODUCT_NAME: process.env.PRODUCT_NAME?.trim() || undefined,
    VITE_API_URL: loadEnv(mode, root, 'VITE_').VITE_API_URL || undefined,
  });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid frontend configuration: ${problems.join('; ')}`);
  }
  return result.data;
}

/** Fills %PRODUCT_NAME% in index.html, so the title is right before any script runs. */
function productNameInHtml(productName: string): Plugin {
  return {
    name: 'rampart-product-name',
    transformIndexHtml: (html) => html.replaceAll('%PRODUCT_NAME%', productName),
  };
}

export default defineConfig(({ mode }) => {
  const env = frontendEnv(mode);
  return {
    root,
    plugins: [react(), tailwindcss(), productNameInHtml(env.PRODUCT_NAME)],
    define: {
      'import.meta.env.PRODUCT_NAME': JSON.stringify(env.PRODUCT_NAME),
    },
    build: {
      outDir: fileURLToPath(new URL('./dist', import.meta.url)),
      emptyOutDir: true,
    },
    server: {
      // For `npx vite --config frontend/vite.config.ts`: the API itself runs under `npm start`.
      proxy: { '/api': process.env.RAMPART_API_ORIGIN ?? 'http://127.0.0.1:3000' },
    },
  };
});

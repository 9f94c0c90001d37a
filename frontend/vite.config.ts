import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The same PRODUCT_NAME key the server reads (DESIGN.md), fixed into the bundle at build time.
const productName = process.env.PRODUCT_NAME?.trim() || 'Rampart';

/** Fills %PRODUCT_NAME% in index.html, so the title is right before any script runs. */
function productNameInHtml(): Plugin {
  return {
    name: 'rampart-product-name',
    transformIndexHtml: (html) => html.replaceAll('%PRODUCT_NAME%', productName),
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss(), productNameInHtml()],
  define: {
    'import.meta.env.PRODUCT_NAME': JSON.stringify(productName),
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: {
    // For `npx vite --config frontend/vite.config.ts`: the API itself runs under `npm start`.
    proxy: { '/api': process.env.RAMPART_API_ORIGIN ?? 'http://127.0.0.1:3000' },
  },
});

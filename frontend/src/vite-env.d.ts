/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Fixed at build time from the PRODUCT_NAME configuration key (see vite.config.ts). */
  readonly PRODUCT_NAME: string;
  /** Origin of the API when it is not the site's own (empty: same origin, the default). */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

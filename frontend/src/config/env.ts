/**
 * The frontend's configuration. Both keys are fixed into the bundle when it is built, and checked
 * there, once, with zod (`frontendEnv` in frontend/vite.config.ts: a bad value fails the build
 * naming the key), so the first bundle carries no schema library just to read two constants. The
 * defaults are for runs without that build step (the component tests).
 */
export interface Env {
  PRODUCT_NAME: string;
  /** Empty means the API is served from the site's own origin (CloudFront and `npm start` both do). */
  API_URL: string;
}

export const env: Env = {
  PRODUCT_NAME: import.meta.env.PRODUCT_NAME || 'Rampart',
  API_URL: import.meta.env.VITE_API_URL || '',
};

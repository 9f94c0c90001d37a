import { env } from './env';

/** Words the pages share, in one place so the product name stays configuration. */
export const content = {
  productName: env.PRODUCT_NAME,
  pitch: 'A free, real security report for your small-business website, in under 60 seconds.',
} as const;

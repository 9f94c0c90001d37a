import { env } from '../../config/env';

/** A receipt's address: the API names its own receipts by path, served from the API's origin. */
export const receiptHref = (receiptUrl: string): string => (receiptUrl.startsWith('/') ? `${env.API_URL}${receiptUrl}` : receiptUrl);

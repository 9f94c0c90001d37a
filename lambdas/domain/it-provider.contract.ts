import * as z from 'zod';
import { singleLineText } from './single-line-text.js';

/**
 * IT providers (issue 22 item 3): the contracts the API and the dashboard share. zod and types only
 * (the frontend bundles this file; the logo's byte checks are in it-providers.ts).
 */

/** A logo is a PNG of at most this many bytes, sent and stored as a `data:image/png;base64,` URL. */
export const LOGO_MAX_BYTES = 64 * 1024;
/** And at most this many pixels on a side. */
export const LOGO_MAX_PIXELS = 1024;
export const LOGO_DATA_URL_PREFIX = 'data:image/png;base64,';

export const itProviderMessages = {
  name: 'Enter the name your clients know you by (1 to 80 characters)',
  colour: 'Enter a colour as #rrggbb, for example #0f766e',
  logo: `The logo must be a PNG image of at most ${LOGO_MAX_BYTES / 1024} KB and ${LOGO_MAX_PIXELS}×${LOGO_MAX_PIXELS} pixels`,
  notProvider: 'This organisation manages no client organisations.',
} as const;

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

export const brandingInputSchema = z.strictObject({
  // One line, no control or text-direction characters: the name is drawn in PDFs and shown in emails.
  name: singleLineText({ max: 80, min: 1, required: itProviderMessages.name, tooLong: itProviderMessages.name }),
  colour: z.string({ error: itProviderMessages.colour }).regex(HEX_COLOUR, itProviderMessages.colour).transform((value) => value.toLowerCase()),
  /** null or absent: no logo. */
  logo: z
    .string({ error: itProviderMessages.logo })
    .max(LOGO_DATA_URL_PREFIX.length + Math.ceil(LOGO_MAX_BYTES / 3) * 4, itProviderMessages.logo)
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, itProviderMessages.logo)
    .nullish(),
});
export type BrandingInput = z.output<typeof brandingInputSchema>;

/** A provider's branding as stored and shown. `version` changes with every save (PDF cache keys carry it). */
export interface ProviderBranding {
  name: string;
  colour: string;
  /** A validated PNG as a data URL, or null. */
  logo: string | null;
  updatedAt: string;
  version: string;
}

export interface ClientDomainOverview {
  domain: string;
  grade: string | null;
  score: number | null;
  lastScanAt: string | null;
  overdue: number;
}

export interface ClientOverview {
  orgId: string;
  name: string;
  linkedAt: string;
  domains: ClientDomainOverview[];
  /** Sums over the domains. */
  overdue: number;
  /** The worst latest grade among the domains (null: none scanned yet). */
  worstGrade: string | null;
}

export interface ProviderOverview {
  clients: ClientOverview[];
}

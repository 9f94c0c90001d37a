/**
 * In-page anchors of the landing page (SPEC §2): the scan form and the pricing section, which
 * also answers to #pricing. Links elsewhere (dashboard 'Upgrade Plan', checkout's returnUrl) use them.
 */
export const anchors = {
  auditForm: 'audit-form',
  pricing: 'pricing-section',
  pricingAlias: 'pricing',
} as const;

/** The navigation state that asks the landing page to scroll to pricing (SPEC §2: after 100 ms). */
export interface LandingNavigationState {
  scrollToPricing?: boolean;
}

export const SCROLL_TO_PRICING_DELAY_MS = 100;

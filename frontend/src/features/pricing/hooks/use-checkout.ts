import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { anchors } from '../../../config/anchors';
import { paths } from '../../../config/paths';
import type { PlanId } from '../../../lib/catalogue';

/** The plan a signed-out visitor chose, so checkout can resume once they are back from login (DECISIONS "Checkout UI"). */
export const PENDING_CHECKOUT_KEY = 'pendingCheckoutPlan';

/**
 * The pricing section's checkout button (SPEC §4 "Checkout button"): the chosen plan shows
 * 'Processing...' while the next page loads. Checkout needs a signed-in session (SPEC §6); sign-in
 * and the checkout API arrive with later issues, so today every visitor is signed out and goes to
 * /auth/login with a returnUrl back to this page's pricing section.
 */
export function useCheckout() {
  const navigate = useNavigate();
  const location = useLocation();
  const [processingPlanId, setProcessingPlanId] = useState<PlanId | null>(null);

  const startCheckout = (planId: PlanId) => {
    if (processingPlanId) return;
    setProcessingPlanId(planId);
    try {
      window.sessionStorage.setItem(PENDING_CHECKOUT_KEY, planId);
    } catch {
      // Storage blocked: the visitor picks the plan again after login.
    }
    const returnUrl = `${location.pathname}${location.search}#${anchors.pricing}`;
    void navigate(paths.auth.login.getHref(returnUrl));
  };

  return { processingPlanId, startCheckout };
}

import type { CallBudget } from './ports.js';

/**
 * A budget of `totalMs` from now, on the real (monotonic) clock: the time the calls actually take,
 * whatever the product's clock says (tests move that one).
 */
export function startCallBudget(totalMs: number, now: () => number = () => performance.now()): CallBudget {
  const deadline = now() + totalMs;
  return { remainingMs: () => deadline - now() };
}

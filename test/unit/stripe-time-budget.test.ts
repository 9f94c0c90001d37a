import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { attemptsWithin, createStripeClient, STRIPE_MIN_ATTEMPT_MS, StripePayments } from '../../lambdas/adapters/stripe-payments.adapter.js';
import { errorReply } from '../../lambdas/api/http.js';
import { startCallBudget } from '../../lambdas/domain/call-budget.js';
import { UpstreamUnavailableError } from '../../lambdas/domain/errors.js';
import { paymentMessages } from '../../lambdas/domain/payments.contract.js';
import { apiFunctions } from '../../lambdas/routes.js';
import { STRIPE_CALLS_BUDGET_MS } from '../../lambdas/use-cases/payments.js';
import { loopbackServers } from '../support/loopback-servers.js';

/**
 * Issue 30 item 6: the Stripe calls of one request share one time budget under the payments
 * function's timeout. A loopback stand-in for Stripe's API that answers late, never, or a byte at a
 * time; the answers it does give are the API reference's example customer (as stripe-payments.test.ts).
 */

type Behaviour = 'never' | 'trickle' | { delayMs: number } | 'now';
const servers = loopbackServers();
const requests: { path: string; at: number }[] = [];
let behaviours: Behaviour[] = [];
const open = new Set<ServerResponse>();

const customer = { id: 'cus_NffrFeUfNV2Hib', object: 'customer', email: 'jenny.rosen@example.com', metadata: {}, created: 1680893993, livemode: false };

async function stripeAt(): Promise<StripePayments> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ path: new URL(req.url ?? '/', 'http://stripe.test').pathname, at: performance.now() });
      const behaviour = behaviours.shift() ?? 'now';
      open.add(res);
      res.on('close', () => open.delete(res));
      if (behaviour === 'never') return;
      if (behaviour === 'trickle') {
        // Headers, then a byte every 300 ms: a socket idle timeout never fires.
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_slow' });
        const timer = setInterval(() => res.write(' '), 300);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const answer = () => res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_test' }).end(JSON.stringify(customer));
      if (behaviour === 'now') answer();
      else setTimeout(answer, behaviour.delayMs);
    });
  });
  const port = await servers.listen(server);
  return new StripePayments(createStripeClient('sk_test_4eC39HqLyjWDarjtT1zdp7dc', { host: '127.0.0.1', port, protocol: 'http' }));
}

let payments: StripePayments;
beforeEach(async () => {
  for (const res of open) res.destroy();
  requests.length = 0;
  behaviours = [];
  payments ??= await stripeAt();
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await servers.closeAll();
});

const checkoutInput = {
  mode: 'payment' as const,
  plan: { id: 'pro-audit' as const, name: 'Pro Audit', summary: 'Everything in the Basic Audit.' },
  amountCents: 39_900,
  currency: 'aud',
  customerId: 'cus_NffrFeUfNV2Hib',
  userId: 'user-1',
  successUrl: 'https://rampart.example/payment-success',
  cancelUrl: 'https://rampart.example/#pricing',
};

/** The checkout's two calls in a row under one budget, as createCheckoutSession makes them; the error it ends with. */
async function checkoutWithin(totalMs: number): Promise<{ error: unknown; elapsedMs: number }> {
  const budget = startCallBudget(totalMs);
  const started = performance.now();
  try {
    const { customerId } = await payments.createCustomer({ userId: 'user-1', email: 'jenny.rosen@example.com' }, budget);
    await payments.createCheckoutSession({ ...checkoutInput, customerId }, budget);
    return { error: undefined, elapsedMs: performance.now() - started };
  } catch (error) {
    return { error, elapsedMs: performance.now() - started };
  }
}

describe('the Stripe calls’ time budget', () => {
  it('fits the payments function: the budget leaves at least 3 s of its timeout for the table and the answer', () => {
    expect(STRIPE_CALLS_BUDGET_MS + 3_000).toBeLessThanOrEqual(apiFunctions.payments.timeoutSeconds * 1000);
  });

  it('shares what is left between the attempts: a retry only when two attempts and the pause fit, none below the minimum', () => {
    expect(attemptsWithin(10_000)).toEqual({ timeout: 4_500, maxNetworkRetries: 1 });
    expect(attemptsWithin(3_000)).toEqual({ timeout: 1_000, maxNetworkRetries: 1 });
    expect(attemptsWithin(2_999)).toEqual({ timeout: 2_999, maxNetworkRetries: 0 });
    expect(attemptsWithin(30_000)).toEqual({ timeout: 10_000, maxNetworkRetries: 1 });
    expect(attemptsWithin(STRIPE_MIN_ATTEMPT_MS - 1)).toBeUndefined();
  });

  it('a Stripe that never answers: the checkout gives up within the budget, well before the function’s deadline, with the spec’s 502', async () => {
    // Prepare: every request hangs.
    behaviours = ['never', 'never', 'never', 'never'];

    // Act
    const { error, elapsedMs } = await checkoutWithin(STRIPE_CALLS_BUDGET_MS);

    // Assert: one budget for both calls: the customer call used it (two attempts), the session call never started.
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(elapsedMs).toBeGreaterThan(STRIPE_CALLS_BUDGET_MS - 1_500);
    expect(elapsedMs).toBeLessThan(STRIPE_CALLS_BUDGET_MS + 300);
    expect(elapsedMs).toBeLessThan(apiFunctions.payments.timeoutSeconds * 1000 - 4_000);
    expect(requests.map((r) => r.path)).toEqual(['/v1/customers', '/v1/customers']);
    const reply = errorReply(error, { log: { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined } as never });
    expect(reply.statusCode).toBe(502);
    expect(JSON.parse(reply.body ?? '')).toEqual({ error: 'checkout_failed', message: paymentMessages.checkoutFailed });
  }, 20_000);

  it('a Stripe that trickles its answer a byte at a time is given up at the budget’s end all the same', async () => {
    behaviours = ['trickle', 'trickle'];

    const { error, elapsedMs } = await checkoutWithin(2_500);

    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).details).toMatchObject({ reason: expect.stringMatching(/within the \d+ ms left of the request's time budget/) });
    expect(elapsedMs).toBeLessThan(2_500 + 300);
  }, 10_000);

  it('a slow first call leaves the second only what is left: it is not started when that is under the minimum', async () => {
    // Prepare: the customer answers after 2.2 s of a 3 s budget (one attempt: a retry does not fit 3 s minus the pause twice).
    behaviours = [{ delayMs: 2_200 }];

    const { error, elapsedMs } = await checkoutWithin(3_000);

    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect((error as UpstreamUnavailableError).details).toMatchObject({ reason: expect.stringMatching(/^Stripe not called: \d+ ms left/) });
    expect(requests.map((r) => r.path)).toEqual(['/v1/customers']);
    expect(elapsedMs).toBeLessThan(3_000);
  }, 10_000);

  it('a first attempt that times out is retried within the budget, and the retry’s answer is used', async () => {
    // Prepare: the first attempt hangs; the retry answers at once.
    behaviours = ['never', 'now'];

    const budget = startCallBudget(STRIPE_CALLS_BUDGET_MS);
    const started = performance.now();
    const { customerId } = await payments.createCustomer({ userId: 'user-1', email: 'jenny.rosen@example.com' }, budget);

    expect(customerId).toBe('cus_NffrFeUfNV2Hib');
    expect(requests.map((r) => r.path)).toEqual(['/v1/customers', '/v1/customers']);
    // The first attempt had its share (4.5 s), not the client's 10 s.
    expect(requests[1]!.at - requests[0]!.at).toBeLessThan(4_500 + 1_200);
    expect(performance.now() - started).toBeLessThan(STRIPE_CALLS_BUDGET_MS);
  }, 20_000);
});

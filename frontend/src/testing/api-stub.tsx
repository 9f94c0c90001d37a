import { QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { createQueryClient } from '../lib/react-query';

/**
 * A Response-shaped answer whose body resolves in microtasks only: a real Response reads its body
 * through streams, which stall under fake timers.
 */
function fakeResponse(status: number, body: unknown): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    json: async () => {
      if (typeof body === 'string' || body === undefined) throw new SyntaxError('Unexpected token: not JSON');
      return body;
    },
  } as Response;
}

/** One recorded call to the stubbed API. */
export interface ApiCall {
  method: string;
  path: string;
  /** The query string as sent, with its '?'; absent when there is none. */
  query?: string;
  body: unknown;
}

type Answer = { status: number; body?: unknown } | (() => { status: number; body?: unknown });

/**
 * Stands in for the API in jsdom: answers by "METHOD /path", each route's answers used in turn
 * (the last one repeats), and records every call so tests can assert what the page sent.
 */
export function stubApi(routes: Record<string, Answer | Answer[]>) {
  const calls: ApiCall[] = [];
  const used = new Map<string, number>();
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const key = `${method} ${url.pathname}`;
    calls.push({ method, path: url.pathname, ...(url.search ? { query: url.search } : {}), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answers = routes[key];
    if (!answers) return fakeResponse(404, { error: 'route_not_found' });
    const list = Array.isArray(answers) ? answers : [answers];
    const index = used.get(key) ?? 0;
    used.set(key, index + 1);
    const answer = list[Math.min(index, list.length - 1)]!;
    const { status, body } = typeof answer === 'function' ? answer() : answer;
    return fakeResponse(status, body);
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

/** Renders inside the app's query client (no retries, so failures show at once) and a router. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/**
 * Moves the fake clock by `ms`, then lets what that started settle: lazily imported code, stubbed answers (microtasks),
 * React Query's notifications (timers at 0 ms) and React's updates, some rounds deep.
 */
export async function advance(ms = 0): Promise<void> {
  // Code loaded with import() (the lead contract) arrives on the real clock.
  await act(() => vi.dynamicImportSettled());
  await act(() => vi.advanceTimersByTimeAsync(ms));
  for (let round = 0; round < 20; round++) await act(() => vi.advanceTimersByTimeAsync(0));
  // And code that what settled asked for: a finished report loads its details once its score is shown.
  await act(() => vi.dynamicImportSettled());
  for (let round = 0; round < 5; round++) await act(() => vi.advanceTimersByTimeAsync(0));
}

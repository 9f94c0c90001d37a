import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/react-query';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { WazuhTester } from './wazuh-tester';

const BASE = 'https://wazuh.example.com:55000';

const agent = (n: number, status = 'active') => ({ id: `00${n}`, name: `rampart-shop${n}.example.com`, ip: `203.0.113.${n}`, status, group: ['shop-example-com'] });
const agentList = (items: unknown[]) => ({
  data: { affected_items: items, total_affected_items: items.length, total_failed_items: 0, failed_items: [] },
  message: 'All selected agents information was returned',
  error: 0,
});

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Answers by full URL (the manager) or path (Rampart's API); records what the page sent. */
function stubNetwork(answers: Record<string, { status: number; body: unknown } | Error | (() => Promise<{ status: number; body: unknown }>)>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({ url, method: init.method ?? 'GET', headers: { ...(init.headers as Record<string, string>) }, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const answer = answers[url];
      if (!answer) throw new TypeError('Failed to fetch');
      if (answer instanceof Error) throw answer;
      const { status, body } = typeof answer === 'function' ? await answer() : answer;
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

function showTester(status: AuthStatus = 'signed-out') {
  const queryClient = createQueryClient();
  return render(
    <QueryClientProvider client={queryClient}>
      <AuthTestProvider value={{ status }}>
        <MemoryRouter initialEntries={['/wazuh-test']}>
          <WazuhTester />
        </MemoryRouter>
      </AuthTestProvider>
    </QueryClientProvider>,
  );
}

const endpointField = () => screen.getByLabelText('Wazuh API endpoint') as HTMLInputElement;
const tokenField = () => screen.getByLabelText('API token') as HTMLInputElement;
const testButton = () => screen.getByRole('button', { name: /Test API|Testing API/ }) as HTMLButtonElement;
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const chooseTest = (value: string) => fireEvent.change(screen.getByLabelText('Test type'), { target: { value } });

function fill(endpoint = BASE, token = 'jwt.token.value') {
  type(endpointField(), endpoint);
  type(tokenField(), token);
}

const banner = async (): Promise<Record<string, string | null | undefined>> => {
  const region = await screen.findByLabelText('Test result');
  const terms = within(region).getAllByRole('term');
  return { title: region.querySelector('p')?.textContent, ...Object.fromEntries(terms.map((t) => [t.textContent, t.nextElementSibling?.textContent])) };
};

describe('the Wazuh API tester', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('resets the endpoint to the default base and masks the token until shown', () => {
    showTester();
    expect(endpointField().value).toBe('https://your-wazuh-manager:55000');
    type(endpointField(), 'https://elsewhere.example.com:1234');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(endpointField().value).toBe('https://your-wazuh-manager:55000');

    type(tokenField(), 'secret-token');
    expect(tokenField().type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show token' }));
    expect(tokenField().type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide token' }));
    expect(tokenField().type).toBe('password');
  });

  it("copies the token and says 'Token copied to clipboard'", async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    showTester();
    expect((screen.getByRole('button', { name: 'Copy token' }) as HTMLButtonElement).disabled).toBe(true);
    type(tokenField(), 'secret-token');
    fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    expect((await screen.findByRole('status')).textContent).toBe('Token copied to clipboard');
    expect(writeText).toHaveBeenCalledWith('secret-token');
  });

  it('keeps Test disabled while the endpoint or the token is empty, and gives the spec alerts for blank ones', async () => {
    const calls = stubNetwork({});
    showTester();
    expect(testButton().disabled).toBe(true); // no token yet
    type(tokenField(), 'jwt');
    expect(testButton().disabled).toBe(false);
    type(endpointField(), '');
    expect(testButton().disabled).toBe(true);

    type(endpointField(), BASE);
    type(tokenField(), '   ');
    fireEvent.click(testButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter your Wazuh API token first');

    type(tokenField(), 'jwt');
    type(endpointField(), '   ');
    fireEvent.click(testButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Please enter your Wazuh API endpoint'));
    expect(calls).toEqual([]);
  });

  it("calls /agents on the manager with the bearer token, shows 'Testing API...' meanwhile, then the banner, the first 3 agents and the raw answer", async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    const calls = stubNetwork({ [`${BASE}/agents`]: () => new Promise((resolve) => (answer = resolve)) });
    showTester();
    fill(`${BASE}/`);
    chooseTest('agents');
    fireEvent.click(testButton());

    await screen.findByText('Testing API...');
    expect(testButton().disabled).toBe(true);
    answer({ status: 200, body: agentList([agent(1), agent(2, 'disconnected'), agent(3), agent(4)]) });

    expect(await banner()).toMatchObject({ title: 'API Test Successful', Status: '200', Endpoint: `${BASE}/agents` });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: `${BASE}/agents`, method: 'GET', headers: { authorization: 'Bearer jwt.token.value' } });
    const table = within(screen.getByRole('region', { name: /^Agents/ }));
    expect(screen.getByRole('heading', { name: 'Agents (3 of 4 shown)' })).toBeTruthy();
    expect(table.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['rampart-shop1.example.com', '203.0.113.1', 'active', 'shop-example-com'],
      ['rampart-shop2.example.com', '203.0.113.2', 'disconnected', 'shop-example-com'],
      ['rampart-shop3.example.com', '203.0.113.3', 'active', 'shop-example-com'],
    ]);
    expect(screen.getByText(/^Items found:/).textContent).toBe('Items found: 4');
    const raw = screen.getByTestId('wazuh-raw-response');
    expect(JSON.parse(raw.textContent ?? '')).toEqual(agentList([agent(1), agent(2, 'disconnected'), agent(3), agent(4)]));
    expect(raw.className).toContain('max-h-80');
    expect(raw.className).toContain('overflow-auto');
    expect(testButton().disabled).toBe(false);
  });

  it.each([
    [401, { title: 'Unauthorized', detail: 'Invalid credentials' }, 'Unauthorized: Invalid credentials', /^401: Bad token/],
    [403, { title: 'Permission Denied', detail: 'Permission denied: Resource type: *:*', error: 4000 }, 'Permission Denied: Permission denied: Resource type: *:*', /^403: No permissions/],
    [404, { title: 'Not Found', detail: '404: Not Found' }, 'Not Found: 404: Not Found', /^404: Endpoint not found/],
  ])("shows 'API Test Failed' with status %i, Wazuh's reason and the matching explanation", async (status, body, message, explanation) => {
    stubNetwork({ [`${BASE}/`]: { status, body } });
    showTester();
    fill();
    fireEvent.click(testButton());
    expect(await banner()).toMatchObject({ title: 'API Test Failed', Status: String(status), Endpoint: `${BASE}/`, Message: message });
    const highlighted = within(screen.getByRole('region', { name: 'Analysis' })).getAllByRole('listitem').filter((item) => item.className.includes('font-semibold'));
    expect(highlighted.map((item) => item.textContent)).toEqual([expect.stringMatching(explanation)]);
    expect(screen.queryByRole('region', { name: /^Agents/ })).toBeNull();
  });

  it('reports a manager that does not answer (or refuses CORS) as a failure without a status', async () => {
    stubNetwork({ [`${BASE}/groups`]: new TypeError('Failed to fetch') });
    showTester();
    fill();
    chooseTest('groups');
    fireEvent.click(testButton());
    const shown = await banner();
    expect(shown).toMatchObject({ title: 'API Test Failed', Status: 'No answer', Endpoint: `${BASE}/groups` });
    expect(shown.Message).toMatch(/^Network error \(Failed to fetch\).*CORS/);
  });

  it('searches agents by name {product}-{domain} once a domain is given', async () => {
    const calls = stubNetwork({ [`${BASE}/agents?search=rampart-shop.example.com`]: { status: 200, body: agentList([agent(1)]) } });
    showTester();
    fill();
    chooseTest('agents-by-name');
    expect(testButton().disabled).toBe(true);
    type(screen.getByLabelText('Domain'), 'not a domain');
    fireEvent.click(testButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter the domain the agents were installed for, such as example.com');
    type(screen.getByLabelText('Domain'), 'Shop.Example.com');
    fireEvent.click(testButton());
    expect(await banner()).toMatchObject({ Status: '200', Endpoint: `${BASE}/agents?search=rampart-shop.example.com` });
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/agents?search=rampart-shop.example.com`]);
  });

  it('offers the relay only to signed-in users', () => {
    showTester('signed-out');
    expect(screen.queryByLabelText('Send through Rampart (for managers without CORS)')).toBeNull();
  });

  it("sends the test through Rampart's relay when asked, and shows the manager's answer or Rampart's refusal", async () => {
    const calls = stubNetwork({
      '/api/wazuh/relay': { status: 200, body: { status: 200, endpoint: `${BASE}/agents?status=active`, data: agentList([agent(7)]), truncated: false, certificateTrusted: false } },
    });
    showTester('signed-in');
    fill();
    chooseTest('active-agents');
    fireEvent.click(screen.getByLabelText('Send through Rampart (for managers without CORS)'));
    fireEvent.click(testButton());
    expect(await banner()).toMatchObject({ title: 'API Test Successful', Status: '200', Endpoint: `${BASE}/agents?status=active` });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/wazuh/relay', method: 'POST', body: { endpoint: BASE, path: '/agents?status=active', token: 'jwt.token.value' } });
    expect(screen.getByText(/certificate is not trusted/)).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'rampart-shop7.example.com' })).toBeTruthy();

    stubNetwork({
      '/api/wazuh/relay': {
        status: 403,
        body: { error: 'target_not_allowed', message: '10.0.0.7 resolves to 10.0.0.7, a private or reserved address. Rampart only scans sites on the public internet.' },
      },
    });
    fireEvent.click(testButton());
    const refused = await banner();
    expect(refused).toMatchObject({ title: 'API Test Failed', Status: 'No answer' });
    expect(refused.Message).toBe(
      'Rampart did not relay the request (HTTP 403, target_not_allowed): 10.0.0.7 resolves to 10.0.0.7, a private or reserved address. Rampart only scans sites on the public internet.',
    );
  });

  it('links Back to Dashboard with a full page load', () => {
    showTester();
    const back = screen.getByRole('link', { name: 'Back to Dashboard' });
    expect(back.getAttribute('href')).toBe('/dashboard');
  });
});

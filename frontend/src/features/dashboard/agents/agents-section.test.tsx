import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { agentMessages, type AgentSummaryView, type AgentView } from '../../../lib/contracts';
import { AuthTestProvider } from '../../auth/auth-provider';
import { ACCOUNT, DEMO_ACCOUNT } from '../settings/test-fixtures';
import { AgentsSection } from './agents-section';
import { AGENTS, debugView, ENROLLMENT, installEvent } from './test-fixtures';

const saveFile = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/save-file', () => ({ saveFile }));

const summaryOf = (agents: AgentView[]): AgentSummaryView => ({
  domain: null,
  agents_found: agents.length,
  agents_active: agents.filter((a) => a.status === 'active').length,
  vulnerabilities_total: agents.reduce((sum, a) => sum + a.vulnerability_count, 0),
  cis_fails_total: agents.reduce((sum, a) => sum + a.cis_fail_count, 0),
  agents_data: agents,
});

type Answer = { status: number; body?: unknown } | (() => { status: number; body?: unknown });

function stubAgentsApi({ agents = AGENTS, account = ACCOUNT, extra = {} }: { agents?: AgentView[] | Answer; account?: typeof ACCOUNT; extra?: Record<string, Answer | Answer[]> } = {}) {
  return stubApi({
    'GET /api/me': { status: 200, body: account },
    'GET /api/me/agents': Array.isArray(agents) ? { status: 200, body: { agents } } : agents,
    'GET /api/me/agents/summary': { status: 200, body: summaryOf(Array.isArray(agents) ? agents : []) },
    'GET /api/me/agents/debug': { status: 200, body: debugView() },
    'GET /api/me/agents/enrollment': { status: 200, body: ENROLLMENT },
    ...extra,
  });
}

const showAgents = (tab?: string) =>
  renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-in' }}>
      <AgentsSection />
    </AuthTestProvider>,
    { route: tab ? `/dashboard/agents?tab=${tab}` : '/dashboard/agents' },
  );

const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('the Local Security Agents page', () => {
  beforeEach(() => {
    saveFile.mockReset();
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the four counts and summary cards for up to 3 agents on the Overview', async () => {
    stubAgentsApi();
    showAgents();
    await screen.findByText('Total Agents');
    const counts = Object.fromEntries(
      ['Total Agents', 'Active Agents', 'Vulnerabilities', 'Config Issues'].map((label) => [label, screen.getByText(label).nextElementSibling?.textContent]),
    );
    expect(counts).toEqual({ 'Total Agents': '4', 'Active Agents': '3', Vulnerabilities: '6', 'Config Issues': '4' });
    const cards = within(screen.getByRole('list', { name: 'Agents' })).getAllByRole('listitem');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['FRONT-DESK-01', 'web-01', 'mac-ceo']);
    expect(within(cards[0]!).getByText('3 vulnerabilities, 2 config issues')).toBeTruthy();
    expect(within(cards[1]!).getByText('No issues')).toBeTruthy();
    expect(within(cards[2]!).getByText('Disconnected')).toBeTruthy();
  });

  it('shows three skeleton rows while the Agent List loads, then each agent', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    const pending = new Promise<{ status: number; body: unknown }>((resolve) => (answer = resolve));
    stubAgentsApi();
    // The list answers only when the test says so.
    const fetchStub = vi.mocked(fetch);
    const original = fetchStub.getMockImplementation()!;
    fetchStub.mockImplementation(async (input, init) => {
      if (new URL(String(input), 'http://localhost').pathname === '/api/me/agents') {
        const { status, body } = await pending;
        return { ok: status === 200, status, json: async () => body } as Response;
      }
      return original(input, init);
    });
    showAgents('list');
    await waitFor(() => expect(screen.getAllByTestId('agent-skeleton-row')).toHaveLength(3));

    answer({ status: 200, body: { agents: AGENTS } });
    await screen.findByText('FRONT-DESK-01');
    expect(screen.queryAllByTestId('agent-skeleton-row')).toHaveLength(0);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Hostname', 'IP', 'OS', 'Last seen', 'Grade', 'Score', 'Issues', 'Actions']);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    const [first, , , waiting] = rows.map(cellsOf);
    expect(first).toEqual(['FRONT-DESK-01 Active', '192.0.2.10', 'Windows 11 Pro 23H2', expect.stringMatching(/^20 Nov 2026/), 'C', '75', '3 vulnerabilities, 2 config issues', 'Remove']);
    expect(waiting!.slice(4)).toEqual(['—', '—', 'Waiting for first report', 'Remove']);
  });

  it('removes an agent only once confirmed, then reads the list again (issue 28: how a machine that lost its token enrols anew)', async () => {
    const api = stubAgentsApi({ extra: { 'DELETE /api/me/agents/agt_cccccccccccccccccccccccccc': { status: 204 } } });
    showAgents('list');
    await screen.findByText('mac-ceo');
    const listReads = api.callsTo('GET', '/api/me/agents').length;

    fireEvent.click(screen.getByRole('button', { name: 'Remove mac-ceo' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove mac-ceo?' });
    expect(api.callsTo('DELETE', '/api/me/agents/agt_cccccccccccccccccccccccccc')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove agent' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('DELETE', '/api/me/agents/agt_cccccccccccccccccccccccccc')).toHaveLength(1);
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    await waitFor(() => expect(api.callsTo('GET', '/api/me/agents').length).toBeGreaterThan(listReads));
  });

  it('keeps the dialog open with the answer when the removal is refused', async () => {
    const refused = { status: 403, body: { error: 'forbidden', message: 'Only an admin or the owner can do this.' } };
    stubAgentsApi({ extra: { 'DELETE /api/me/agents/agt_aaaaaaaaaaaaaaaaaaaaaaaaaa': refused } });
    showAgents('list');
    await screen.findByText('FRONT-DESK-01');

    fireEvent.click(screen.getByRole('button', { name: 'Remove FRONT-DESK-01' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Remove FRONT-DESK-01?' })).getByRole('button', { name: 'Remove agent' }));

    expect(await within(screen.getByRole('dialog')).findByText('Only an admin or the owner can do this.')).toBeTruthy();
  });

  it("says 'No Agents Found' with Install Agent, which opens the Install Agent tab", async () => {
    stubAgentsApi({ agents: [] });
    showAgents('list');
    await screen.findByRole('heading', { name: 'No Agents Found' });
    fireEvent.click(screen.getByRole('button', { name: 'Install Agent' }));
    expect(screen.getByRole('tab', { name: 'Install Agent' }).getAttribute('aria-selected')).toBe('true');
    await screen.findByRole('list', { name: 'Installers' });
  });

  it('shows non-demo users with zero agents the promo linking to the pricing section, and nobody else', async () => {
    stubAgentsApi({ agents: [] });
    const { unmount } = showAgents();
    const promo = await screen.findByRole('region', { name: 'Protect your computers' });
    expect(within(promo).getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe('/#pricing-section');
    unmount();

    stubAgentsApi({ agents: [], account: DEMO_ACCOUNT });
    const demo = showAgents();
    await screen.findByText('Total Agents');
    expect(screen.queryByRole('region', { name: 'Protect your computers' })).toBeNull();
    demo.unmount();

    stubAgentsApi();
    showAgents();
    await screen.findByText('Total Agents');
    expect(screen.queryByRole('region', { name: 'Protect your computers' })).toBeNull();
  });

  it('fetches again on Sync Now and shows the last sync time', async () => {
    const api = stubAgentsApi();
    showAgents();
    await waitFor(() => expect(screen.getByTestId('last-sync').textContent).toMatch(/^Last sync: \d{1,2}:\d{2}:\d{2}\s?(am|pm)$/i));
    const before = api.callsTo('GET', '/api/me/agents').length + api.callsTo('GET', '/api/me/agents/summary').length;
    fireEvent.click(screen.getByRole('button', { name: 'Sync Now' }));
    await waitFor(() => expect(api.callsTo('GET', '/api/me/agents').length + api.callsTo('GET', '/api/me/agents/summary').length).toBe(before + 2));
  });

  it("shows the install commands with the client-domain option beside the customer's secret, the requirements, and saves the installer under the domain's name", async () => {
    stubAgentsApi();
    const original = vi.mocked(fetch).getMockImplementation()!;
    const downloads: string[] = [];
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname.startsWith('/agents/')) {
        downloads.push(`${url.pathname}${url.search}`);
        return { ok: true, status: 200, blob: async () => new Blob(['@echo off'], { type: 'application/x-bat' }) } as Response;
      }
      return original(input, init);
    });
    showAgents('install');
    const commands = await screen.findByRole('region', { name: 'Command line' });
    expect(within(commands).getAllByRole('definition').map((value) => value.querySelector('code')?.textContent)).toEqual([
      '.\\shop-example-com-osquery-installer.bat --client-domain shop.example.com',
      'sudo sh ./shop-example-com-osquery-installer.sh --client-domain shop.example.com',
      'ens_0123456789abcdefghijklmnopqrstuv',
    ]);
    const requirements = within(screen.getByRole('region', { name: 'Requirements' })).getAllByRole('listitem').map((item) => item.textContent);
    expect(requirements.slice(0, 3)).toEqual(['Windows 10 or Server 2016 or later', 'PowerShell 5.0+', '100 MB free disk']);

    fireEvent.change(screen.getByLabelText('Domain'), { target: { value: 'blog.example.com' } });
    const windows = screen.getByRole('listitem', { name: 'Windows installer' });
    fireEvent.click(within(windows).getByRole('button', { name: 'Download' }));
    await within(windows).findByText('Saved blog-example-com-osquery-installer.bat');
    expect(downloads).toEqual(['/agents/rampart-osquery-installer.bat?domain=blog.example.com']);
    expect(saveFile).toHaveBeenCalledTimes(1);
    expect(saveFile.mock.calls[0]![1]).toBe('blog-example-com-osquery-installer.bat');
    // The download starts the walkthrough for that domain.
    expect(await screen.findByText('Waiting for the installer to start as administrator')).toBeTruthy();
  });

  it('rotates the secret after confirmation and shows the new one', async () => {
    const api = stubAgentsApi({ extra: { 'POST /api/me/agents/secret': { status: 200, body: { ...ENROLLMENT, secret: 'ens_rotatedrotatedrotatedrotated00' } } } });
    showAgents('install');
    await screen.findByRole('region', { name: 'Enrollment secret' });
    fireEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate the enrollment secret?' });
    expect(api.callsTo('POST', '/api/me/agents/secret')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/me/agents/secret')).toHaveLength(1);
    expect(screen.getAllByText('ens_rotatedrotatedrotatedrotated00', { selector: 'code' })).toHaveLength(2);
    expect(screen.queryAllByText(/ens_0123456789abcdefghijklmnopqrstuv/)).toHaveLength(0);
  });

  it('shows an account without Monitor Plus an upgrade note linking to the subscription page instead of the installers (the API answers 403 plan_required)', async () => {
    const planRequired = { status: 403, body: { error: 'plan_required', message: agentMessages.planRequired } };
    stubAgentsApi({ agents: [], extra: { 'GET /api/me/agents/enrollment': planRequired } });
    showAgents('install');

    const note = await screen.findByRole('note', { name: 'Upgrade to install agents' });

    expect(note.textContent).toBe(`${agentMessages.planRequired} View plans`);
    expect(agentMessages.planRequired).toContain('Monitor Plus');
    expect(within(note).getByRole('link', { name: 'View plans' }).getAttribute('href')).toBe('/dashboard/subscription');
    expect(screen.queryByRole('list', { name: 'Installers' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Enrollment secret' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rotate secret' })).toBeNull();
    // The promo for accounts with no agents still links to the pricing section.
    expect(within(screen.getByRole('region', { name: 'Protect your computers' })).getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe('/#pricing-section');
  });

  it('shows the upgrade note when the plan lapsed while the page was open: on rotating the secret and on downloading an installer', async () => {
    const planRequired = { status: 403, body: { error: 'plan_required', message: agentMessages.planRequired } };
    stubAgentsApi({ extra: { 'POST /api/me/agents/secret': planRequired } });
    const original = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      if (new URL(String(input), 'http://localhost').pathname.startsWith('/agents/')) {
        return { ok: false, status: 403, json: async () => planRequired.body } as Response;
      }
      return original(input, init);
    });
    showAgents('install');
    await screen.findByRole('region', { name: 'Enrollment secret' });

    fireEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate the enrollment secret?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    const inDialog = await within(dialog).findByRole('note', { name: 'Upgrade to install agents' });
    expect(within(inDialog).getByRole('link', { name: 'View plans' }).getAttribute('href')).toBe('/dashboard/subscription');
    expect(screen.getAllByText(ENROLLMENT.secret, { selector: 'code' })).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    const linux = screen.getByRole('listitem', { name: 'Linux installer' });
    fireEvent.click(within(linux).getByRole('button', { name: 'Download' }));
    const onCard = await within(linux).findByRole('note', { name: 'Upgrade to install agents' });
    expect(onCard.textContent).toBe(`${agentMessages.planRequired} View plans`);
    expect(saveFile).not.toHaveBeenCalled();
  });

  it("follows a real install: 'Installation Failed' with the installer's message and the troubleshooting list", async () => {
    window.localStorage.setItem('rampart-agent-install:shop.example.com', String(Date.now() - 1000));
    stubAgentsApi({
      extra: {
        'GET /api/me/agents/debug': {
          status: 200,
          body: debugView({
            recent_installs: [installEvent({ install_status: 'failed', received_at: new Date().toISOString(), install_message: 'This installer must be run as Administrator' })],
          }),
        },
      },
    });
    showAgents('install');
    const failure = await screen.findByRole('alert');
    expect(within(failure).getByText('Installation Failed')).toBeTruthy();
    expect(within(failure).getByText('This installer must be run as Administrator')).toBeTruthy();
    expect(within(failure).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Run the installer as Administrator (on macOS and Linux, with sudo).',
      'Check the computer’s internet connection, and that it can reach this site over HTTPS.',
      'Temporarily disable antivirus software that may block the installer, then run it again.',
      'Contact support with the message above if it still fails.',
    ]);
    const steps = within(screen.getByRole('list', { name: 'Install steps' })).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('data-status'))).toEqual(['failed', 'pending', 'pending', 'pending', 'pending', 'pending']);
  });

  it('shows the API check: reports received, the last report and the 5 recent submissions', async () => {
    const recent = [1, 2, 3, 4, 5].map((n) => ({ agent_id: `agt_${'a'.repeat(25)}${n}`, client_domain: 'shop.example.com', audit_timestamp: `2026-11-20T0${n}:00:00.000Z` }));
    stubAgentsApi({ extra: { 'GET /api/me/agents/debug': { status: 200, body: debugView({ audit_count: 42, last_audit: '2026-11-20T05:00:00.000Z', recent_audits: recent }) } } });
    showAgents('debug');
    const check = await screen.findByRole('region', { name: 'API check' });
    expect(within(check).getByText('42')).toBeTruthy();
    expect(within(check).getByText('API reachable')).toBeTruthy();
    const rows = within(screen.getByRole('region', { name: 'Recent submissions' })).getAllByRole('row').slice(1);
    expect(rows.map((row) => cellsOf(row)[0])).toEqual(recent.map((r) => r.agent_id));
  });

  it("shows 'API check failed' with the error's message when the check cannot be fetched, and when it reports no success", async () => {
    stubAgentsApi({
      extra: {
        'GET /api/me/agents/debug': [
          { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side. Please try again.' } },
          { status: 200, body: debugView({ success: false }) },
        ],
      },
    });
    showAgents('debug');
    const alert = await screen.findByRole('alert');
    const failure = [alert.querySelector('p')?.textContent, alert.querySelectorAll('p')[1]?.textContent];
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    const check = await screen.findByRole('region', { name: 'API check' });
    expect(failure).toEqual(['API check failed', 'Something went wrong on our side. Please try again.']);
    expect(within(check).getByText('API check failed').className).toContain('text-red-700');
    expect(within(check).queryByText('API reachable')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { installProgress } from './install-progress';
import { agentView, debugView, installEvent } from './test-fixtures';

const START = Date.parse('2026-11-20T03:00:00.000Z');
const at = (minutes: number) => new Date(START + minutes * 60_000).toISOString();
const statuses = (progress: ReturnType<typeof installProgress>) => Object.fromEntries(progress.steps.map((step) => [step.id, step.status]));

describe('installProgress: the walkthrough from what really arrived', () => {
  it('waits on the administrator check while nothing has arrived', () => {
    const progress = installProgress('shop.example.com', START, debugView(), []);
    expect(statuses(progress)).toEqual({ 'admin-check': 'running', download: 'pending', install: 'pending', configure: 'pending', validate: 'pending', register: 'pending' });
    expect(progress.state).toBe('waiting');
    expect(progress.steps[0]!.message).toBe('Waiting for the installer to start as administrator');
  });

  it("passes the administrator check on the installer's 'started' message, and the install steps on 'completed'", () => {
    const started = installProgress('shop.example.com', START, debugView({ recent_installs: [installEvent({ install_status: 'started', received_at: at(1) })] }), []);
    expect(statuses(started)).toMatchObject({ 'admin-check': 'completed', download: 'running', install: 'pending' });

    const completed = installProgress(
      'shop.example.com',
      START,
      debugView({ recent_installs: [installEvent({ install_status: 'completed', received_at: at(3) }), installEvent({ install_status: 'started', received_at: at(1) })] }),
      [],
    );
    expect(statuses(completed)).toEqual({ 'admin-check': 'completed', download: 'completed', install: 'completed', configure: 'completed', validate: 'completed', register: 'running' });
  });

  it('is installed once an agent of the domain registers, and knows when its first report came', () => {
    const agent = agentView({ agent_id: 'agt_eeeeeeeeeeeeeeeeeeeeeeeeee', hostname: 'FRONT-DESK-02', registered_at: at(4), last_report_at: null });
    const registered = installProgress('shop.example.com', START, debugView(), [agent]);
    expect(Object.values(statuses(registered))).toEqual(Array(6).fill('completed'));
    expect(registered.state).toBe('installed');
    expect(registered.agent?.hostname).toBe('FRONT-DESK-02');
    expect(registered.firstReportAt).toBeUndefined();

    const reported = installProgress('shop.example.com', START, debugView(), [{ ...agent, last_report_at: at(6) }]);
    expect(reported.firstReportAt).toBe(at(6));
  });

  it("fails the current step with the installer's message, or 'Unknown installation error' without one", () => {
    const debug = debugView({
      recent_installs: [
        installEvent({ install_status: 'failed', received_at: at(2), install_message: 'Failed to download osquery MSI: timed out after 300 s' }),
        installEvent({ install_status: 'started', received_at: at(1) }),
      ],
    });
    const failed = installProgress('shop.example.com', START, debug, []);
    expect(failed.state).toBe('failed');
    expect(failed.failure).toBe('Failed to download osquery MSI: timed out after 300 s');
    expect(statuses(failed)).toMatchObject({ 'admin-check': 'completed', download: 'failed', install: 'pending' });
    expect(failed.steps[1]!.message).toBe('Failed to download osquery MSI: timed out after 300 s');

    const silent = installProgress('shop.example.com', START, debugView({ recent_installs: [installEvent({ install_status: 'failed', received_at: at(1) })] }), []);
    expect(silent.failure).toBe('Unknown installation error');
    expect(statuses(silent)['admin-check']).toBe('failed');
  });

  it('fails the very step the installer names, the steps before it completed, the ones after pending', () => {
    const debug = debugView({
      recent_installs: [
        installEvent({ install_status: 'failed', install_step: 'validate', received_at: at(4), install_message: 'osquery did not answer a test query.' }),
        installEvent({ install_status: 'started', install_step: 'admin-check', received_at: at(1) }),
      ],
    });
    const failed = installProgress('shop.example.com', START, debug, []);
    expect(failed.state).toBe('failed');
    expect(failed.failure).toBe('osquery did not answer a test query.');
    expect(statuses(failed)).toEqual({ 'admin-check': 'completed', download: 'completed', install: 'completed', configure: 'completed', validate: 'failed', register: 'pending' });
    expect(failed.steps[4]!.message).toBe('osquery did not answer a test query.');

    // The administrator check refused: nothing else arrived, and that step, not a later one, is failed.
    const admin = 'Administrator privileges required. Please run PowerShell as Administrator and try again.';
    const refused = installProgress('shop.example.com', START, debugView({ recent_installs: [installEvent({ install_status: 'failed', install_step: 'admin-check', received_at: at(1), install_message: admin })] }), []);
    expect(statuses(refused)).toEqual({ 'admin-check': 'failed', download: 'pending', install: 'pending', configure: 'pending', validate: 'pending', register: 'pending' });
    expect(refused.steps[0]!.message).toBe(admin);

    // A failure at registration (the reporter could not be scheduled) after 'started': register failed, the rest done.
    const late = installProgress(
      'shop.example.com',
      START,
      debugView({ recent_installs: [installEvent({ install_status: 'failed', install_step: 'register', received_at: at(5) }), installEvent({ install_status: 'started', received_at: at(1) })] }),
      [],
    );
    expect(statuses(late)).toMatchObject({ configure: 'completed', validate: 'completed', register: 'failed' });
    expect(late.steps[5]!.message).toBe('Unknown installation error');
  });

  it("ignores what arrived before the walkthrough started (beyond a minute's clock allowance) and other domains' installs", () => {
    const debug = debugView({
      recent_installs: [
        installEvent({ install_status: 'completed', received_at: at(-5) }),
        installEvent({ install_status: 'completed', received_at: at(2), customer_domain: 'blog.example.com' }),
        installEvent({ install_status: 'started', received_at: at(-0.5) }),
      ],
    });
    const agents = [agentView({ agent_id: 'agt_ffffffffffffffffffffffffff', hostname: 'old', registered_at: at(-60) })];
    const progress = installProgress('shop.example.com', START, debug, agents);
    expect(statuses(progress)).toMatchObject({ 'admin-check': 'completed', download: 'running' });
    expect(progress.agent).toBeUndefined();
  });
});

import type { AgentDebugView, AgentInstallStep, AgentView } from '../../../lib/contracts';

/** SPEC §4 "Agent install steps", in order. */
export const INSTALL_STEPS = [
  { id: 'admin-check', name: 'Administrator check', waitingFor: 'the installer to start as administrator' },
  { id: 'download', name: 'Download osquery', waitingFor: 'the installer to download osquery' },
  { id: 'install', name: 'Install osquery', waitingFor: 'osquery to be installed' },
  { id: 'configure', name: 'Configure', waitingFor: 'the configuration and the enrollment secret to be written' },
  { id: 'validate', name: 'Validate', waitingFor: 'the installer to check that osquery runs' },
  { id: 'register', name: 'Register', waitingFor: 'the agent to register with your account' },
] as const satisfies readonly { id: AgentInstallStep; name: string; waitingFor: string }[];

export type InstallStepId = (typeof INSTALL_STEPS)[number]['id'];
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed';

/** SPEC §3 "Install step". */
export interface InstallStep {
  id: InstallStepId;
  name: string;
  status: StepStatus;
  message: string;
}

export interface InstallProgress {
  steps: InstallStep[];
  /** 'waiting' until the agent registers; 'installed' then; 'failed' when the installer reported a failure since. */
  state: 'waiting' | 'installed' | 'failed';
  /** The installer's failure message (SPEC §8: else 'Unknown installation error'). */
  failure?: string;
  /** The agent that registered for the domain since the walkthrough started. */
  agent?: AgentView;
  /** When its first report arrived (SPEC §9: "Data appears within 5 minutes"). */
  firstReportAt?: string;
}

/**
 * Server clocks stamp what arrives, the browser's clock stamps the start: a minute's allowance so a
 * slightly fast browser clock does not miss the installer's first message.
 */
export const CLOCK_ALLOWANCE_MS = 60_000;

const after = (iso: string | null | undefined, since: number) => iso !== null && iso !== undefined && Date.parse(iso) >= since - CLOCK_ALLOWANCE_MS;

/**
 * The walkthrough's steps from what really arrived for `domain` since `startedAt` (epoch ms): the
 * installer's telemetry (started, completed, failed), the agent's registration and its first report.
 * The installer reports 'started' once it runs as administrator and 'completed' once osquery is
 * installed, configured and running; the registration comes last. A 'failed' message names its step
 * (`install_step`): that step is failed, the ones before it completed; without a step (older
 * installers) the first step not yet confirmed is.
 */
export function installProgress(domain: string, startedAt: number, debug: AgentDebugView | undefined, agents: readonly AgentView[] | undefined): InstallProgress {
  const events = (debug?.recent_installs ?? []).filter((event) => event.customer_domain === domain && after(event.received_at, startedAt));
  const agent = (agents ?? [])
    .filter((candidate) => candidate.client_domain === domain && after(candidate.registered_at, startedAt))
    .sort((a, b) => Date.parse(b.registered_at) - Date.parse(a.registered_at))[0];
  const report = (debug?.recent_audits ?? []).find((entry) => entry.client_domain === domain && agent && entry.agent_id === agent.agent_id);
  const firstReportAt = agent?.last_report_at ?? report?.audit_timestamp ?? undefined;

  const newest = [...events].sort((a, b) => Date.parse(b.received_at) - Date.parse(a.received_at))[0];
  const started = events.some((event) => event.install_status !== 'failed') || agent !== undefined;
  const completed = events.some((event) => event.install_status === 'completed') || agent !== undefined;
  const failed = !agent && newest?.install_status === 'failed';

  const failedIndex = failed && newest?.install_step ? INSTALL_STEPS.findIndex((step) => step.id === newest.install_step) : -1;
  const confirmed: Record<InstallStepId, boolean> = {
    'admin-check': started,
    download: completed,
    install: completed,
    configure: completed,
    validate: completed,
    register: agent !== undefined,
  };
  // The installer runs its steps in order: those before the failing one passed.
  const done = (id: InstallStepId, index: number) => (failedIndex >= 0 ? index < failedIndex : confirmed[id]);
  const current = failedIndex >= 0 ? INSTALL_STEPS[failedIndex]!.id : INSTALL_STEPS.find((step, index) => !done(step.id, index))?.id;
  const steps = INSTALL_STEPS.map((step, index): InstallStep => {
    if (done(step.id, index)) return { id: step.id, name: step.name, status: 'completed', message: 'Done' };
    if (step.id === current) {
      return failed
        ? { id: step.id, name: step.name, status: 'failed', message: newest?.install_message || 'Unknown installation error' }
        : { id: step.id, name: step.name, status: 'running', message: `Waiting for ${step.waitingFor}` };
    }
    return { id: step.id, name: step.name, status: 'pending', message: '' };
  });

  return {
    steps,
    state: agent ? 'installed' : failed ? 'failed' : 'waiting',
    ...(failed ? { failure: newest?.install_message || 'Unknown installation error' } : {}),
    ...(agent ? { agent } : {}),
    ...(firstReportAt ? { firstReportAt } : {}),
  };
}

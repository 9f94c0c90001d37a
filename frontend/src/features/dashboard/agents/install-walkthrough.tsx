import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { OSQUERY_VERSION } from '../../../lib/contracts';
import { agentKeys, useAgentsDebug, useMyAgents } from './api/agents';
import { cardClass, dateTime } from './format';
import { installProgress, type StepStatus } from './install-progress';

/** How often the walkthrough asks the API what has arrived. */
export const INSTALL_POLL_MS = 5_000;

/** SPEC §8 "Agent install failure": the troubleshooting list. */
export const TROUBLESHOOTING = [
  'Run the installer as Administrator (on macOS and Linux, with sudo).',
  'Check the computer’s internet connection, and that it can reach this site over HTTPS.',
  'Temporarily disable antivirus software that may block the installer, then run it again.',
  'Contact support with the message above if it still fails.',
] as const;

const marker: Record<StepStatus, string> = { pending: '○', running: '…', completed: '✓', failed: '✕' };
const tone: Record<StepStatus, string> = {
  pending: 'text-slate-500 dark:text-slate-400',
  running: 'text-blue-700 dark:text-blue-400',
  completed: 'text-green-700 dark:text-green-400',
  failed: 'text-red-700 dark:text-red-400',
};

/**
 * The one-click installer walkthrough made real (issue 10): after the user runs the downloaded
 * installer, each step follows what the API has received for the domain since `startedAt` — the
 * installer's telemetry, the registration, the first report — polled every 5 s.
 */
export function InstallWalkthrough({ domain, startedAt, onStart, onReset }: { domain: string; startedAt: number | undefined; onStart: () => void; onReset: () => void }) {
  const queryClient = useQueryClient();
  // Polls until the first report arrives (or the installer reports a failure).
  const refetchInterval = () => {
    if (startedAt === undefined) return false;
    const now = installProgress(domain, startedAt, queryClient.getQueryData(agentKeys.debug()), queryClient.getQueryData(agentKeys.list()));
    return now.firstReportAt !== undefined || now.state === 'failed' ? false : INSTALL_POLL_MS;
  };
  const debug = useAgentsDebug({ refetchInterval });
  const agents = useMyAgents({ refetchInterval });
  const progress = startedAt !== undefined ? installProgress(domain, startedAt, debug.data, agents.data) : undefined;

  return (
    <section aria-label="Installation progress" className={cardClass}>
      <h2 className="text-lg font-semibold">Installation progress</h2>
      {!progress ? (
        <div className="mt-2 space-y-3 text-sm text-slate-700 dark:text-slate-300">
          <p>
            Run the installer you downloaded for <strong>{domain}</strong> (as Administrator). This panel then follows it step by step as the installer reports to{' '}
            {domain}&apos;s account. Data appears within 5 minutes.
          </p>
          <Button onClick={onStart}>I have started the installer</Button>
        </div>
      ) : (
        <div className="mt-3 space-y-4">
          <ol className="space-y-2" aria-label="Install steps">
            {progress.steps.map((step) => (
              <li key={step.id} data-step={step.id} data-status={step.status} className={`flex items-start gap-3 text-sm ${tone[step.status]}`}>
                <span aria-hidden="true" className="w-4 text-center font-bold">
                  {step.status === 'running' ? <Spinner className="size-3" /> : marker[step.status]}
                </span>
                <span>
                  <span className="font-semibold">{step.name}</span>
                  <span className="sr-only"> ({step.status})</span>
                  {step.message && <span className="block text-xs">{step.message}</span>}
                </span>
              </li>
            ))}
          </ol>

          {progress.state === 'failed' && (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              <p className="font-semibold">Installation Failed</p>
              <p className="mt-1">{progress.failure}</p>
              <ul className="mt-2 list-disc pl-5">
                {TROUBLESHOOTING.map((tip) => (
                  <li key={tip}>{tip}</li>
                ))}
              </ul>
            </div>
          )}

          {progress.state === 'waiting' && <p className="text-sm text-slate-600 dark:text-slate-400">Data appears within 5 minutes.</p>}

          {progress.agent && (
            <div role="status" className="rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-200">
              <p className="font-semibold">
                Agent installed on {progress.agent.hostname} (osquery {progress.agent.osquery_version || OSQUERY_VERSION}, agent {progress.agent.version})
              </p>
              <p className="mt-1">
                {progress.firstReportAt
                  ? `First report received ${dateTime(progress.firstReportAt)}: see it on the Agent List.`
                  : 'Waiting for its first report. Data appears within 5 minutes.'}
              </p>
            </div>
          )}

          <Button variant="secondary" onClick={onReset}>
            Start again
          </Button>
        </div>
      )}
    </section>
  );
}

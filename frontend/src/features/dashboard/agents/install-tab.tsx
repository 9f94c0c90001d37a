import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage } from '../../../components/ui/text-field';
import { installerExtension, installerFileName, productSlug, savedInstallerFileName, type AgentEnrollmentView, type AgentPlatform } from '../../../lib/contracts';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { ListLoadError, ListSkeleton } from '../history/list-states';
import { DangerButton } from '../settings/panel';
import { CopyableValue } from '../settings/copyable-value';
import { downloadInstaller, useAgentEnrollment, useRotateAgentSecret } from './api/agents';
import { cardClass, platformLabel } from './format';
import { InstallWalkthrough } from './install-walkthrough';

/** SPEC §9 "Agents": the requirements, as the spec states them. */
export const AGENT_REQUIREMENTS = ['Windows 10 or Server 2016 or later', 'PowerShell 5.0+', '100 MB free disk'] as const;

const PLATFORMS: readonly AgentPlatform[] = ['windows', 'macos', 'linux'];

/**
 * The command lines the installers take (lambdas/agents' scripts): `--client-domain` chooses the
 * domain to enrol for; the enrollment secret travels inside the downloaded script.
 */
export function installCommand(platform: AgentPlatform, domain: string): string {
  const file = savedInstallerFileName(domain, installerExtension(platform));
  if (platform === 'windows') return `.\\${file} --client-domain ${domain}`;
  return `sudo sh ./${file} --client-domain ${domain}`;
}

/** Where the walkthrough's start is kept, per domain, so a reload keeps following the same install. */
const startKey = (domain: string) => `${productSlug(content.productName)}-agent-install:${domain}`;

function readStart(domain: string): number | undefined {
  try {
    const value = Number(window.localStorage.getItem(startKey(domain)));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

function useInstallStart(domain: string) {
  const [startedAt, setStartedAt] = useState<number | undefined>(() => (domain ? readStart(domain) : undefined));
  useEffect(() => setStartedAt(domain ? readStart(domain) : undefined), [domain]);
  const store = (value: number | undefined) => {
    try {
      if (value === undefined) window.localStorage.removeItem(startKey(domain));
      else window.localStorage.setItem(startKey(domain), String(value));
    } catch {
      // Storage refused (private mode): the walkthrough still runs for this visit.
    }
    setStartedAt(value);
  };
  return {
    startedAt,
    start: () => store(Date.now()),
    reset: () => store(undefined),
    // A download starts the walkthrough, unless one is already following an install.
    startIfIdle: () => {
      if (startedAt === undefined) store(Date.now());
    },
  };
}

/** The API's 403 `plan_required`: the account's plan does not include endpoint agents (Monitor Plus). */
const isPlanRequired = (error: unknown): error is ApiError => error instanceof ApiError && error.code === 'plan_required';

/** Without the plan: the API's message (it names the plan) and the way to the subscription page. */
function UpgradeNote({ message }: { message: string }) {
  return (
    <p
      role="note"
      aria-label="Upgrade to install agents"
      className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      {message}{' '}
      <Link to={paths.dashboard.section.getHref('subscription')} className="font-semibold underline">
        View plans
      </Link>
    </p>
  );
}

function DownloadCard({ enrollment, platform, domain, onDownloaded }: { enrollment: AgentEnrollmentView; platform: AgentPlatform; domain: string; onDownloaded: () => void }) {
  const installer = enrollment.installers.find((candidate) => candidate.platform === platform);
  const [state, setState] = useState<{ busy: boolean; saved?: string; error?: string; planRequired?: boolean }>({ busy: false });
  if (!installer) return null;
  const download = async () => {
    setState({ busy: true });
    try {
      const saved = await downloadInstaller(installer, domain);
      setState({ busy: false, saved });
      onDownloaded();
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : 'The installer could not be downloaded.', planRequired: isPlanRequired(error) });
    }
  };
  return (
    <li className={cardClass} aria-label={`${platformLabel[platform]} installer`}>
      <h2 className="font-semibold">{platformLabel[platform]}</h2>
      <p className="mt-1 font-mono text-xs text-slate-600 dark:text-slate-400">{installer.path}</p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Saved as {savedInstallerFileName(domain, installerExtension(platform))}</p>
      <Button className="mt-3" onClick={() => void download()} disabled={state.busy || !domain}>
        {state.busy && <Spinner className="size-4" />}
        Download
      </Button>
      {state.saved && <p className="mt-2 text-xs text-green-700 dark:text-green-400">Saved {state.saved}</p>}
      {state.error &&
        (state.planRequired ? (
          <div className="mt-2">
            <UpgradeNote message={state.error} />
          </div>
        ) : (
          <p role="alert" className="mt-2 text-xs text-red-700 dark:text-red-400">
            {state.error}
          </p>
        ))}
    </li>
  );
}

function SecretPanel({ enrollment }: { enrollment: AgentEnrollmentView }) {
  const [confirming, setConfirming] = useState(false);
  const rotate = useRotateAgentSecret();
  return (
    <section aria-label="Enrollment secret" className={cardClass}>
      <h2 className="text-lg font-semibold">Enrollment secret</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Installers carry it to enrol computers with your account; each agent then gets its own identity. Keep it private.
      </p>
      <dl className="mt-3">
        <CopyableValue label="Enrollment secret" value={enrollment.secret} />
      </dl>
      <Button variant="secondary" className="mt-3" onClick={() => setConfirming(true)}>
        Rotate secret
      </Button>
      {rotate.isSuccess && <p className="mt-2 text-sm text-green-700 dark:text-green-400">A new secret is in place. Download the installers again.</p>}
      {confirming && (
        <Dialog title="Rotate the enrollment secret?" onClose={() => setConfirming(false)}>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Installers and commands that carry the current secret will no longer enrol computers. Agents already installed keep reporting.
          </p>
          {rotate.isError && (isPlanRequired(rotate.error) ? <UpgradeNote message={rotate.error.message} /> : <FormMessage tone="error">{rotate.error.message}</FormMessage>)}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <DangerButton
              disabled={rotate.isPending}
              onClick={() => rotate.mutate(undefined, { onSuccess: () => setConfirming(false) })}
            >
              {rotate.isPending && <Spinner className="size-4" />}
              Rotate secret
            </DangerButton>
          </div>
        </Dialog>
      )}
    </section>
  );
}

/** SPEC §2 Install Agent: download cards, command-line examples, requirements, and the walkthrough of the real install. */
export function InstallTab() {
  const enrollment = useAgentEnrollment();
  const pickerId = useId();
  const [chosen, setChosen] = useState('');
  const domains = enrollment.data?.domains ?? [];
  const domain = domains.includes(chosen) ? chosen : (domains[0] ?? '');
  const walk = useInstallStart(domain);

  if (enrollment.isPending) return <ListSkeleton label="Loading the installers" rows={3} />;
  if (isPlanRequired(enrollment.error)) return <UpgradeNote message={enrollment.error.message} />;
  if (enrollment.isError) {
    return <ListLoadError title="The installers could not be loaded" message={enrollment.error.message} onRetry={() => void enrollment.refetch()} retrying={enrollment.isFetching} />;
  }
  const view = enrollment.data;
  const slug = productSlug(content.productName);

  return (
    <div className="space-y-6">
      <section aria-label="Domain to install for" className={cardClass}>
        {domains.length === 0 ? (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Agents enrol for one of your verified domains. <Link to="/dashboard/settings?tab=domains" className="font-semibold text-blue-700 hover:underline dark:text-blue-400">Verify a domain</Link> first.
          </p>
        ) : (
          <>
            <label htmlFor={pickerId} className="block text-sm font-semibold">
              Domain
            </label>
            <select id={pickerId} value={domain} onChange={(event) => setChosen(event.target.value)} className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-950">
              {domains.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              Agents for this domain are named {slug}-{domain} and report to {view.apiBase}.
            </p>
          </>
        )}
      </section>

      {domain && (
        <>
          <ul aria-label="Installers" className="grid gap-4 md:grid-cols-3">
            {PLATFORMS.map((platform) => (
              <DownloadCard key={platform} enrollment={view} platform={platform} domain={domain} onDownloaded={walk.startIfIdle} />
            ))}
          </ul>

          <section aria-label="Command line" className={cardClass}>
            <h2 className="text-lg font-semibold">Command line</h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              From the folder you saved the installer in: in an Administrator command prompt on Windows, in a terminal on macOS and Linux. The{' '}
              <code>--client-domain</code> option chooses the domain the computer enrols for.
            </p>
            <dl className="mt-3 space-y-3">
              <CopyableValue label="Windows command" value={installCommand('windows', domain)} />
              <CopyableValue label="macOS and Linux command" value={installCommand('linux', domain)} />
              <CopyableValue label="Enrollment secret the installers carry" value={view.secret} />
            </dl>
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              The served files are {installerFileName(slug, 'bat')} and {installerFileName(slug, 'sh')}; they install osquery {view.osqueryVersion} and agent{' '}
              {view.agentVersion}.
            </p>
          </section>

          <SecretPanel enrollment={view} />

          <section aria-label="Requirements" className={cardClass}>
            <h2 className="text-lg font-semibold">Requirements</h2>
            <ul className="mt-2 list-disc pl-5 text-sm text-slate-700 dark:text-slate-300">
              {AGENT_REQUIREMENTS.map((requirement) => (
                <li key={requirement}>{requirement}</li>
              ))}
              <li>macOS and Linux: administrator rights (sudo) and curl</li>
            </ul>
          </section>

          <InstallWalkthrough domain={domain} startedAt={walk.startedAt} onStart={walk.start} onReset={walk.reset} />
        </>
      )}
    </div>
  );
}

import { useId } from 'react';
import type { FindingPlatformGuides, PlatformGuideView, ProvidersView } from '../../../lib/contracts';
import { useCopy } from '../../../lib/use-copy';

const label = 'text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400';
const panelText = 'text-sm text-slate-700 dark:text-slate-300';

/**
 * Issue 21 "Show them": where the site and its mail run ("Your mail: Microsoft 365 · DNS:
 * Cloudflare · Site: WordPress on cPanel"), and what each was read from, on request.
 */
export function ProvidersLine({ providers }: { providers: ProvidersView | null | undefined }) {
  if (!providers || providers.summary === '') return null;
  return (
    <section
      aria-labelledby="providers-heading"
      data-testid="providers"
      className="rounded-xl border border-slate-200 bg-white px-5 py-4 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="providers-heading" className="text-sm font-medium text-slate-600 dark:text-slate-400">
        Where your site and mail run
      </h2>
      <p data-testid="providers-summary" className="mt-1 font-semibold text-slate-900 dark:text-slate-100">
        {providers.summary}
      </p>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer rounded-md font-semibold text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400">
          How we know
        </summary>
        <dl className="mt-2 space-y-2">
          {providers.roles.map((role) => (
            <div key={role.role}>
              <dt className="font-semibold text-slate-800 dark:text-slate-200">{role.label}</dt>
              {role.providers.map((provider) => (
                <dd key={provider.id} className="mt-0.5 text-slate-700 dark:text-slate-300">
                  {provider.name}
                  {provider.gateway && ' (mail filtering in front of your mailbox)'}
                  {provider.partOf && ` (part of ${provider.partOf}'s platform)`}
                  {': '}
                  <span className="font-mono text-xs break-all">{provider.evidence.join('; ')}</span>
                </dd>
              ))}
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}

function CopyableRecord({ record }: { record: NonNullable<PlatformGuideView['records']>[number] }) {
  const { state, copy } = useCopy();
  return (
    <li className="rounded-md border border-slate-200 px-3 py-2 dark:border-slate-700">
      <p className={panelText}>
        <span className="font-semibold">{record.type}</span> record, name <code className="font-mono">{record.name}</code>
      </p>
      <div className="mt-1 flex flex-wrap items-start gap-2">
        <pre className="min-w-0 flex-1 overflow-x-auto rounded bg-slate-100 px-3 py-2 font-mono text-sm whitespace-pre-wrap break-all text-slate-800 dark:bg-slate-800 dark:text-slate-200">
          <code>{record.value}</code>
        </pre>
        <button
          type="button"
          onClick={() => void copy(record.value)}
          aria-label={`Copy the value of the ${record.type} record ${record.name}`}
          className="rounded-md border border-slate-300 px-2 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          Copy
        </button>
      </div>
      <p role="status" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {state === 'copied' ? 'Copied to clipboard!' : state === 'failed' ? 'Could not copy: select the value and copy it by hand.' : ''}
      </p>
    </li>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Where a guide's steps come from, in words: "Source: developers.cloudflare.com, checked 7 Dec 2026". */
export function sourceLine(source: NonNullable<PlatformGuideView['source']>): { lead: string; host: string; tail: string } {
  const [year, month, day] = source.checked.split('-').map(Number);
  const checked = `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
  const host = new URL(source.url).host;
  if (source.status === 'unconfirmed') return { lead: 'Not confirmed by the vendor: looked for at ', host, tail: `, ${checked}` };
  return { lead: 'Source: ', host, tail: `${source.status === 'secondary' ? ' (a copy of the vendor\'s page)' : ''}, checked ${checked}` };
}

export const fixHeading = (guide: Pick<PlatformGuideView, 'platform' | 'platformName'>): string =>
  guide.platform === 'dns-host' ? 'Fix it at your DNS host' : `Fix it in ${guide.platformName}`;

function PlatformGuide({ guide, level }: { guide: PlatformGuideView; level: 4 | 5 }) {
  const headingId = useId();
  const Heading = level === 5 ? 'h5' : 'h4';
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-blue-200 bg-blue-50 px-4 py-3 dark:border-blue-800 dark:bg-blue-950">
      <Heading id={headingId} className="font-semibold text-slate-900 dark:text-slate-100">
        {fixHeading(guide)}
      </Heading>
      {guide.statement && <p className="mt-1 text-sm font-semibold text-slate-900 dark:text-slate-100">{guide.statement}</p>}
      {guide.kind === 'not-supported' && guide.steps.length > 0 && <p className={`mt-2 ${panelText}`}>What you can do instead:</p>}
      {guide.steps.length > 0 && (
        <ol className="mt-2 list-decimal space-y-1 pl-6" aria-label={`Steps in ${guide.platform === 'dns-host' ? 'your DNS host' : guide.platformName}`}>
          {guide.steps.map((step, i) => (
            <li key={i} className={`${panelText} pl-1`}>
              {step}
            </li>
          ))}
        </ol>
      )}
      {guide.records && guide.records.length > 0 && (
        <div className="mt-3">
          <p className={label}>{guide.records.length === 1 ? 'The record' : 'The records'}</p>
          <ul className="mt-1 space-y-2">
            {guide.records.map((record) => (
              <CopyableRecord key={`${record.type}:${record.name}:${record.value}`} record={record} />
            ))}
          </ul>
        </div>
      )}
      {guide.note && (
        <p className={`mt-2 ${panelText}`}>
          <span className="font-semibold">Note:</span> {guide.note}
        </p>
      )}
      {guide.source && <GuideSourceLine source={guide.source} />}
    </section>
  );
}

function GuideSourceLine({ source }: { source: NonNullable<PlatformGuideView['source']> }) {
  const { lead, host, tail } = sourceLine(source);
  return (
    <p data-testid="guide-source" className="mt-2 text-xs text-slate-600 dark:text-slate-400">
      {lead}
      <a href={source.url} target="_blank" rel="noreferrer" className="underline underline-offset-2 hover:text-slate-900 dark:hover:text-slate-100">
        {host}
      </a>
      {tail}
    </p>
  );
}

/**
 * A finding's fix for the platforms the scan detected: each platform's numbered steps (a paid
 * audit), or the one-line note that the paid audit has them (a free report).
 */
/** `level`: the guides' heading level, one below the finding's (5 under the report's grouped findings). */
export function FindingPlatformFix({ guides, level = 4 }: { guides: FindingPlatformGuides | undefined; level?: 4 | 5 }) {
  if (!guides) return null;
  if (guides.access === 'teaser') {
    return (
      <p data-testid="platform-guides-teaser" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300">
        {guides.teaser}
      </p>
    );
  }
  return (
    <div data-testid="platform-guides" className="space-y-3">
      {guides.guides.map((guide) => (
        <PlatformGuide key={`${guide.platform}:${guide.role}`} guide={guide} level={level} />
      ))}
    </div>
  );
}

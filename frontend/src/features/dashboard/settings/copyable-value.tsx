import { useCopy } from '../../../lib/use-copy';

/** A labelled value the user has to paste elsewhere (a DNS record, a file), with a Copy button. */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  const { state, copy } = useCopy();

  return (
    <div>
      <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">{label}</dt>
      <dd className="mt-1 flex items-start gap-2">
        <code className="min-w-0 flex-1 rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all text-slate-900 dark:bg-slate-800 dark:text-slate-100">
          {value}
        </code>
        <button
          type="button"
          onClick={() => void copy(value)}
          aria-label={`Copy ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
          className="shrink-0 rounded-md px-2 py-1 text-xs font-semibold text-blue-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400 dark:ring-slate-600 dark:hover:bg-slate-800"
        >
          Copy
        </button>
        <span role="status" className="w-16 shrink-0 text-xs text-slate-600 dark:text-slate-400">
          {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}
        </span>
      </dd>
    </div>
  );
}

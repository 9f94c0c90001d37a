import { useEffect, useId, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import type { useCreateShare } from '../api/create-share';
import { useCopy } from '../../../lib/use-copy';
import { formatDate } from './format';

type Share = ReturnType<typeof useCreateShare>;

/** Share Report / Share Results (DECISIONS "Sharing"): both create a 24-hour read-only link. */
export function ShareButton({ share, label }: { share: Share; label: string }) {
  return (
    <Button variant="secondary" onClick={() => share.mutate()} disabled={share.isPending}>
      {share.isPending && <Spinner className="size-4" />}
      {label}
    </Button>
  );
}

/**
 * The link once created, copied with 'Copied to clipboard!' for 2 s. A refused copy is only logged
 * (SPEC §8); the link stays selected in its field for copying by hand.
 */
export function ShareLinkPanel({ share }: { share: Share }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const { state: copyState, copy: copyText } = useCopy();
  const copied = copyState === 'copied';

  useEffect(() => {
    if (share.data) inputRef.current?.focus();
  }, [share.data]);

  if (share.error) {
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
        Could not create a share link: {share.error.message}
      </p>
    );
  }
  if (!share.data) return null;

  const copy = async () => {
    inputRef.current?.select();
    await copyText(share.data.url);
  };

  return (
    <div className="rounded-xl border border-blue-200 bg-blue-50 p-4 dark:border-blue-800 dark:bg-blue-950">
      <label htmlFor={inputId} className="block text-sm font-semibold text-blue-950 dark:text-blue-100">
        Share link
      </label>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <input
          ref={inputRef}
          id={inputId}
          readOnly
          value={share.data.url}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
        <Button onClick={() => void copy()}>Copy Link</Button>
      </div>
      <p className="mt-2 text-sm text-blue-950 dark:text-blue-100" role="status">
        {copied ? (
          <strong>Copied to clipboard!</strong>
        ) : (
          <>
            Anyone with this link can view a read-only copy of the report until {formatDate(share.data.expiresAt)}
            {share.data.maxUses ? `, up to ${share.data.maxUses} times` : ''}.
          </>
        )}
      </p>
    </div>
  );
}

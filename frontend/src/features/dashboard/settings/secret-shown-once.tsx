import { useEffect, useId, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { useCopy } from '../../../lib/use-copy';

export interface SecretShownOnceProps {
  /** The section's accessible name ('Your new API token'). */
  name: string;
  /** The field's visible label ('Your new token “CI”'). */
  label: string;
  secret: string;
  messages: { secretWarning: string; copied: string; copyFailed: string };
  onDone: () => void;
}

/**
 * A secret the server shows once (an API token, a webhook's signing secret): focused and selected,
 * with Copy → the copied message for 2 s, the warning that it will not be shown again, and Done.
 */
export function SecretShownOnce({ name, label, secret, messages, onDone }: SecretShownOnceProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const { state: copy, copy: copyText } = useCopy();

  useEffect(() => {
    inputRef.current?.focus();
  }, [secret]);

  const copySecret = async () => {
    inputRef.current?.select();
    await copyText(secret);
  };

  return (
    <section aria-label={name} className="rounded-xl border border-amber-300 bg-amber-50 p-6 dark:border-amber-700 dark:bg-amber-950">
      <label htmlFor={inputId} className="block text-sm font-semibold text-amber-950 dark:text-amber-100">
        {label}
      </label>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <input
          ref={inputRef}
          id={inputId}
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
        <Button onClick={() => void copySecret()}>Copy</Button>
      </div>
      <p role="alert" className="mt-3 text-sm font-semibold text-amber-950 dark:text-amber-100">
        {messages.secretWarning}
      </p>
      <p role="status" className="mt-1 min-h-5 text-sm text-amber-950 dark:text-amber-100">
        {copy === 'copied' ? <strong>{messages.copied}</strong> : copy === 'failed' ? messages.copyFailed : ''}
      </p>
      <Button variant="secondary" className="mt-3" onClick={onDone}>
        Done
      </Button>
    </section>
  );
}

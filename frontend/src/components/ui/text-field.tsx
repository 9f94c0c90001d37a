import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The field's message under it; marks the input invalid. */
  error?: string;
  /** Help under the field (a policy, a format). */
  hint?: ReactNode;
  /** For passwords: a Show/Hide button beside the input (SPEC §2 Settings → Security). */
  revealable?: boolean;
}

const inputClass = (invalid: boolean) =>
  `block w-full rounded-md border bg-white px-3 py-2 text-slate-900 placeholder:text-slate-400 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-500 ${
    invalid ? 'border-red-600 dark:border-red-500' : 'border-slate-300 dark:border-slate-600'
  }`;

/** A labelled input with its error and hint wired for screen readers. */
export function TextField({ label, error, hint, revealable = false, type = 'text', className = '', ...input }: TextFieldProps) {
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const field = (
    <input
      id={id}
      type={revealable && revealed ? 'text' : type}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      className={`${inputClass(Boolean(error))} ${revealable ? 'pr-16' : ''}`}
      {...input}
    />
  );
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <div className="relative mt-1">
        {field}
        {revealable && (
          <button
            type="button"
            onClick={() => setRevealed((value) => !value)}
            aria-label={`${revealed ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
            className="absolute inset-y-0 right-0 px-3 text-xs font-semibold text-blue-700 dark:text-blue-400"
          >
            {revealed ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      {hint && (
        <div id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** A form-level message (the spec's alerts are shown inline, not as window.alert). */
export function FormMessage({ tone, children }: { tone: 'error' | 'success'; children: ReactNode }) {
  const tones = {
    error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300',
    success: 'border-green-200 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-300',
  };
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-4 py-3 text-sm font-semibold ${tones[tone]}`}>
      {children}
    </p>
  );
}

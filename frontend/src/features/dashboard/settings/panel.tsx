import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner';

/** One titled card of a Settings tab. */
export function SettingsPanel({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      <div className="mt-5">{children}</div>
    </section>
  );
}

export function LoadingState({ label }: { label: string }) {
  return (
    <p role="status" className="flex items-center gap-3 py-6 text-sm text-slate-600 dark:text-slate-400">
      <Spinner className="size-5 text-blue-700 dark:text-blue-400" />
      {label}
    </p>
  );
}

/** For the irreversible step of a confirmation (delete a domain, delete the account). */
export function DangerButton({ className = '', type = 'button', ...props }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type={type}
      className={`inline-flex items-center justify-center gap-2 rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-red-600 dark:hover:bg-red-500 ${className}`}
      {...props}
    />
  );
}

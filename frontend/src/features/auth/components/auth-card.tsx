import type { ReactNode } from 'react';

/** The auth pages' frame: a centred card with a title and an optional line under it. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-700 dark:bg-slate-900">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-slate-100">{title}</h1>
      {intro && <div className="mt-2 text-sm text-slate-600 dark:text-slate-400">{intro}</div>}
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** Cognito's own message for a failed step, when it gave one; else the page's fallback text. */
export function authErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message && error.name !== 'Error' && error.name !== 'TypeError') return error.message;
  return fallback;
}

export const linkClass = 'font-semibold text-blue-700 underline-offset-4 hover:underline dark:text-blue-400';

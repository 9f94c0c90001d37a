import type { ReactNode } from 'react';

type Tone = 'neutral' | 'error';

const tones: Record<Tone, string> = {
  neutral: 'border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900',
  error: 'border-red-200 bg-red-50 dark:border-red-800 dark:bg-red-950',
};

/**
 * A centred panel for a page's whole-page states: loading, not found, failed. Themed like the page:
 * its children's text carries dark: colours, which read on a dark panel only.
 */
export function StatusPanel({
  title,
  children,
  tone = 'neutral',
  role,
}: {
  title: string;
  children?: ReactNode;
  tone?: Tone;
  role?: 'status' | 'alert';
}) {
  return (
    <section role={role} className={`mx-auto max-w-xl rounded-xl border p-8 text-center shadow-sm ${tones[tone]}`}>
      <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-100">{title}</h1>
      {children}
    </section>
  );
}

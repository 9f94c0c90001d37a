import type { ReactNode } from 'react';

type Tone = 'plain' | 'raised';

const tones: Record<Tone, string> = {
  plain: 'bg-slate-50 dark:bg-slate-950',
  raised: 'bg-white dark:bg-slate-900',
};

/** One full-width band of the landing page with its heading; `id` is its anchor. */
export function Section({
  id,
  title,
  lead,
  tone = 'plain',
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  tone?: Tone;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} tabIndex={-1} className={`scroll-mt-16 focus:outline-none ${tones[tone]}`}>
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id={headingId} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            {title}
          </h2>
          {lead && <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{lead}</p>}
        </div>
        <div className="mt-12">{children}</div>
      </div>
    </section>
  );
}

export const cardClass =
  'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900';

/** A card without padding, for previews that lay out their own header, body and caption. */
export const frameClass = 'rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900';

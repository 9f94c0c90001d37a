import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { paths } from '../../../config/paths';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** The frame both legal pages share: title, contents, numbered sections and the spec's two buttons home. */
export function LegalPage({ title, meta, intro, sections }: { title: string; meta: ReactNode; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <article className="mx-auto max-w-3xl">
      <header className="border-b border-slate-200 pb-6 dark:border-slate-800">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{title}</h1>
        <div className="mt-3 text-sm text-slate-600 dark:text-slate-400">{meta}</div>
        <div className="mt-4 text-slate-700 dark:text-slate-300">{intro}</div>
      </header>
      <nav aria-label="Contents" className="mt-6 rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
        <h2 className="text-sm font-semibold tracking-wider text-slate-500 uppercase dark:text-slate-400">Contents</h2>
        <ol className="mt-3 list-decimal gap-x-8 pl-5 text-sm sm:columns-2">
          {sections.map((section) => (
            <li key={section.id} className="break-inside-avoid py-0.5">
              <a
                href={`#${section.id}`}
                className="rounded-sm text-blue-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:text-blue-400"
              >
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="mt-10 scroll-mt-20">
          <h2 id={`${section.id}-heading`} className="text-xl font-semibold text-slate-900 dark:text-white">
            {index + 1}. {section.title}
          </h2>
          <div className="mt-3 space-y-3 leading-relaxed text-slate-700 dark:text-slate-300 [&_h3]:mt-5 [&_h3]:font-semibold [&_h3]:text-slate-900 dark:[&_h3]:text-white [&_li]:mt-1 [&_ul]:list-disc [&_ul]:pl-6">
            {section.body}
          </div>
        </section>
      ))}
      <div className="mt-12 flex flex-col gap-3 border-t border-slate-200 pt-8 sm:flex-row dark:border-slate-800">
        <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
          Back to Home
        </Link>
        <Link to={paths.home.getHref()} className={buttonClass('primary')}>
          Return to Security Assessment
        </Link>
      </div>
    </article>
  );
}

/** 1 November 2026, in the site's English-Australian format. */
export const formatLegalDate = (date: Date): string =>
  new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);

import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { anchors } from '../../../config/anchors';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import { headlineFigures } from '../../../lib/catalogue';
import { detectionMeasurement, usePlatformStats } from '../../../lib/platform-stats';

const ctaBase =
  'inline-flex min-h-11 items-center justify-center rounded-lg px-5 py-3 text-base font-semibold shadow-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

/** The first screen: what the product does, the two calls to action and the headline figures, each measured (GET /api/stats or a dated measurement). */
export function Hero({ onScrollTo }: { onScrollTo: (id: string) => void }) {
  const { hero } = content;
  const stats = usePlatformStats();
  const figures = headlineFigures(stats.data, detectionMeasurement);
  const scrollTo = (id: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    onScrollTo(id);
  };
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden bg-slate-900 text-white">
      <div aria-hidden="true" className="absolute inset-0 bg-linear-to-br from-blue-950 via-slate-900 to-slate-950" />
      <div aria-hidden="true" className="absolute -top-40 left-1/2 h-96 w-[48rem] max-w-none -translate-x-1/2 rounded-full bg-blue-600/25 blur-3xl" />
      <div className="relative mx-auto max-w-6xl px-4 pt-16 pb-14 text-center sm:px-6 sm:pt-24 sm:pb-20">
        <p className="inline-flex rounded-full bg-white/10 px-4 py-1.5 text-sm font-medium text-blue-100 ring-1 ring-white/20">
          {hero.eyebrow}
        </p>
        <h1 id="hero-heading" className="mx-auto mt-6 max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
          {hero.title}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-300">{hero.lead}</p>
        <div className="mt-10 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <a href={`#${anchors.auditForm}`} onClick={scrollTo(anchors.auditForm)} className={`${ctaBase} bg-blue-600 text-white hover:bg-blue-700`}>
            {hero.primaryCta}
          </a>
          <a href={`#${anchors.pricing}`} onClick={scrollTo(anchors.pricing)} className={`${ctaBase} bg-white/10 text-white ring-1 ring-white/30 hover:bg-white/20`}>
            {hero.secondaryCta}
          </a>
        </div>
        <p className="mt-6 text-sm text-slate-300">
          {hero.loginPrompt}{' '}
          <Link
            to={paths.auth.root.getHref()}
            className="rounded-sm font-semibold text-white underline underline-offset-4 hover:text-blue-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            Client Login
          </Link>
        </p>
        <dl className="mx-auto mt-14 flex max-w-4xl flex-wrap justify-center gap-x-12 gap-y-6 border-t border-white/10 pt-10" data-testid="headline-figures">
          {figures.map((figure) => (
            <div key={figure.id} className="flex flex-col-reverse gap-1" data-figure={figure.id}>
              <dt className="text-sm text-slate-400">{figure.label}</dt>
              <dd className="text-3xl font-bold tracking-tight text-white">{figure.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

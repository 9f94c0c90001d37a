import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { content } from '../../config/content';
import { paths } from '../../config/paths';

export function HomeRoute() {
  return (
    <>
      <title>{`${content.productName} — website security assessments`}</title>
      <section aria-labelledby="hero-heading" className="py-10 text-center sm:py-16">
        <h1 id="hero-heading" className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
          {content.productName}
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-700">{content.pitch}</p>
        <div className="mt-8 flex justify-center">
          <Link to={paths.auth.root.getHref()} className={buttonClass('primary')}>
            Client Login
          </Link>
        </div>
      </section>
    </>
  );
}

import { paths } from '../../config/paths';
import { Button } from '../ui/button';

/** SPEC §2/§8: what a rendering crash shows. Plain navigation, as the router itself may be what broke. */
export function MainErrorFallback() {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 p-6 dark:bg-slate-950">
      <section role="alert" className="max-w-lg rounded-xl border border-red-200 bg-white p-8 text-center shadow-sm dark:border-red-800 dark:bg-slate-900">
        <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-100">Something went wrong</h1>
        <p className="mt-3 text-slate-600 dark:text-slate-400">
          The application encountered an unexpected error. This might be due to a network issue or temporary problem.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Button onClick={() => window.location.reload()}>Refresh Page</Button>
          <Button variant="secondary" onClick={() => window.location.assign(paths.home.getHref())}>
            Go to Home
          </Button>
        </div>
      </section>
    </main>
  );
}

import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';

/** Placeholder rows while a dashboard list loads for the first time. */
export function ListSkeleton({ label, rows = 5 }: { label: string; rows?: number }) {
  return (
    <div role="status" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} aria-hidden="true" className="h-8 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
      ))}
    </div>
  );
}

/** A list that could not be read at all: what failed, the API's message, and Try Again. */
export function ListLoadError({ title, message, onRetry, retrying }: { title: string; message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-center dark:border-red-800 dark:bg-red-950">
      <p className="font-semibold text-red-800 dark:text-red-200">{title}</p>
      <p className="mt-1 text-sm text-red-700 dark:text-red-300">{message}</p>
      <Button className="mt-4" onClick={onRetry} disabled={retrying}>
        {retrying && <Spinner className="size-4" />}
        Try Again
      </Button>
    </div>
  );
}

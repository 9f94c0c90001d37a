import { useId, useRef, type ReactNode } from 'react';
import { useDialogFocus } from './use-dialog-focus';

/**
 * A modal dialog: focus moves in and stays in (Tab wraps), Escape, Close and a click on the
 * backdrop dismiss it, and focus goes back to whatever opened it (useDialogFocus). Mount it only
 * while open.
 */
export function Dialog({ title, description, onClose, children }: { title: string; description?: ReactNode; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useDialogFocus(ref, onClose);

  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center overflow-y-auto bg-slate-900/60 p-4"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="w-full max-w-lg rounded-xl bg-white p-6 shadow-xl focus:outline-none dark:bg-slate-900"
      >
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-xl font-bold text-slate-900 dark:text-slate-100">
              {title}
            </h2>
            {description && <p className="mt-1 text-sm break-all text-slate-600 dark:text-slate-400">{description}</p>}
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="rounded-md px-2 text-2xl leading-none text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-slate-400 dark:hover:text-slate-100"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="mt-4 space-y-4">{children}</div>
      </div>
    </div>
  );
}

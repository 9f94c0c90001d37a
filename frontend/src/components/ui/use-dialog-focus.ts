import { useEffect, useRef, useState, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([tabindex="-1"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog's keyboard contract, the one copy every dialog uses: focus moves in on open
 * (to `[data-autofocus]`, else the first control, unless a child's autoFocus already put it
 * inside), Tab and Shift+Tab stay inside, Escape calls `onEscape` (none: Escape does nothing),
 * and focus goes back to the opener on close. Mount the dialog only while it is open: the opener
 * is read on the first render, before any autoFocus moves focus.
 */
export function useDialogFocus(ref: RefObject<HTMLElement | null>, onEscape: (() => void) | undefined) {
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  // The latest callback, so a parent passing a new function each render does not re-run the effect.
  const escape = useRef(onEscape);
  useEffect(() => {
    escape.current = onEscape;
  }, [onEscape]);

  useEffect(() => {
    const focusable = () => [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    if (!ref.current?.contains(document.activeElement)) {
      (ref.current?.querySelector<HTMLElement>('[data-autofocus]') ?? focusable()[0] ?? ref.current)?.focus();
    }

    const onKeyDown = (event: KeyboardEvent) => {
      const root = ref.current;
      if (!root) return;
      if (event.key === 'Escape') {
        if (!escape.current) return;
        event.preventDefault();
        escape.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusable();
      const first = items[0];
      const last = items.at(-1);
      if (!first || !last) {
        event.preventDefault();
        return;
      }
      const current = document.activeElement;
      if (event.shiftKey && (current === first || !root.contains(current))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (current === last || !root.contains(current))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      opener?.focus();
    };
  }, [ref, opener]);
}

import { useCallback, useEffect, useRef, useState } from 'react';

/** SPEC §9 "Copied indicator: 2 s". */
export const COPIED_FOR_MS = 2_000;

export type CopyState = 'idle' | 'copied' | 'failed';

/**
 * Copy to the clipboard, then 'copied' or 'failed' for COPIED_FOR_MS before 'idle' again. One copy
 * after another restarts the 2 s; the timer is cleared when the component goes away.
 */
export function useCopy(): { state: CopyState; copy: (text: string) => Promise<boolean> } {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (text: string) => {
    let copied: boolean;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch (error) {
      // SPEC §8: a clipboard failure is only logged (the caller may also say so on the page).
      console.warn('Copying to the clipboard failed', error);
      copied = false;
    }
    setState(copied ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_FOR_MS);
    return copied;
  }, []);

  return { state, copy };
}

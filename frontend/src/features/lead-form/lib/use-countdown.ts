import { useEffect, useState } from 'react';

const secondsUntil = (deadline: number | null): number =>
  deadline === null ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));

/**
 * Whole seconds left until `deadline` (ms since the epoch), re-rendered every second. Read from
 * the clock rather than counted down, so a throttled background tab still shows the right time,
 * and right in the render that sets a new deadline.
 */
export function useCountdown(deadline: number | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      setTick((tick) => tick + 1);
      if (secondsUntil(deadline) === 0) clearInterval(timer);
    }, 1_000);
    return () => clearInterval(timer);
  }, [deadline]);
  return secondsUntil(deadline);
}

/** SPEC §2/§9: the code's validity shown as m:ss (600 → 10:00). */
export const formatMinutesSeconds = (seconds: number): string =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

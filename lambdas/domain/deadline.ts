/**
 * Races `work` against an absolute deadline (ms since the epoch): past it, the promise rejects with
 * an `ETIMEDOUT` error carrying `message`. The work itself is not cancelled, only no longer awaited.
 */
export function withDeadline<T>(work: Promise<T>, deadline: number, message = 'Timed out'): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(message), { code: 'ETIMEDOUT' })), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** The checkout's failure message, on the page rather than in a window.alert (DECISIONS "Checkout UI"). */
export function CheckoutAlert({ message, className = '' }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={`rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-semibold text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200 ${className}`}
    >
      {message}
    </p>
  );
}

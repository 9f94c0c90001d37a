import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useAuth } from '../../auth/auth-provider';

/**
 * SPEC §2 "Guard": 'Loading Dashboard...' with 'Checking authentication status' while the session
 * is read, then the page for a signed-in user, else the login page (replacing history) with the
 * way back in `returnUrl`.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') {
    return (
      <div role="status" className="flex min-h-screen flex-col items-center justify-center gap-3 bg-slate-50 text-center dark:bg-slate-950">
        <Spinner className="size-10 text-blue-700" />
        <p className="text-lg font-semibold text-slate-900 dark:text-slate-100">Loading Dashboard...</p>
        <p className="text-sm text-slate-600 dark:text-slate-400">Checking authentication status</p>
      </div>
    );
  }
  if (status !== 'signed-in') {
    return <Navigate to={paths.auth.login.getHref(`${location.pathname}${location.search}`)} replace />;
  }
  return children;
}

import { useEffect, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { StatusPanel } from '../../components/ui/status-panel';
import { Spinner } from '../../components/ui/spinner';
import { content } from '../../config/content';
import { useAuth } from '../../features/auth/auth-provider';
import { LoginForm } from '../../features/auth/components/login-form';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { SetPasswordForm } from '../../features/auth/components/set-password-form';
import { SignupForm } from '../../features/auth/components/signup-form';
import { safeReturnUrl } from '../../features/auth/return-url';

/**
 * The auth pages wait for the session to be known (read now if it was left unread: no session was
 * stored); a signed-in visitor goes where they were headed.
 */
function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  const { status, start, started } = useAuth();
  const [searchParams] = useSearchParams();
  useEffect(start, [start]);
  if (status === 'signed-in') return <Navigate to={safeReturnUrl(searchParams.get('returnUrl'))} replace />;
  return (
    <>
      <title>{`${title} — ${content.productName}`}</title>
      {status === 'loading' || !started ? (
        <div role="status" className="flex justify-center py-24 text-slate-500">
          <Spinner className="size-8" />
          <span className="sr-only">Loading…</span>
        </div>
      ) : status === 'unavailable' ? (
        <StatusPanel title={title} tone="error" role="alert">
          <p className="mt-3 text-slate-700 dark:text-slate-300">Sign-in is unavailable right now. Please try again in a few minutes.</p>
        </StatusPanel>
      ) : (
        children
      )}
    </>
  );
}

export function LoginRoute() {
  return (
    <AuthPage title="Client Login">
      <LoginForm />
    </AuthPage>
  );
}

export function SignupRoute() {
  return (
    <AuthPage title="Create your account">
      <SignupForm />
    </AuthPage>
  );
}

export function ResetPasswordRoute() {
  return (
    <AuthPage title="Reset your password">
      <ResetPasswordForm />
    </AuthPage>
  );
}

export function SetPasswordRoute() {
  return (
    <AuthPage title="Choose your password">
      <SetPasswordForm />
    </AuthPage>
  );
}

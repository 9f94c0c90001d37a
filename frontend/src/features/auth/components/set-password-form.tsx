import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormMessage } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { setPasswordMessages } from '../../../lib/contracts';
import { setPasswordWithLink } from '../api/set-password';
import { useAuth } from '../auth-provider';
import { AuthCard, linkClass } from './auth-card';
import { NewPasswordForm } from './new-password-form';

/** The token of the emailed link, read once from the address's fragment (`#token=…`). */
function tokenFromFragment(): string | undefined {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? undefined;
}

/** The link itself was refused (used, unknown, expired), as opposed to the password. */
function isSpentLink(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  const fields = error.body.fields;
  return error.code === 'link_expired' || (typeof fields === 'object' && fields !== null && 'token' in fields);
}

/**
 * Issue 29 item 4: the page of the one-time link a lead-created account is emailed. The password is
 * chosen here, then the visitor is signed in with it and taken to the dashboard. The token leaves the
 * address bar at once (it stays out of the history and of anything copied from it).
 */
export function SetPasswordForm() {
  const { session, refresh } = useAuth();
  const navigate = useNavigate();
  const [token] = useState(tokenFromFragment);
  const [refusal, setRefusal] = useState<string>();

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);

  if (!token || refusal) {
    return (
      <AuthCard title="Choose your password">
        <FormMessage tone="error">{refusal ?? setPasswordMessages.tokenFormat}</FormMessage>
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          <Link to={paths.auth.resetPassword.getHref()} className={linkClass}>
            Forgot password
          </Link>{' '}
          emails you a code to choose a password; or{' '}
          <Link to={paths.auth.login.getHref()} className={linkClass}>
            sign in
          </Link>
          .
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose your password" intro="Your reports are kept in your account. Choose the password you will sign in with.">
      <NewPasswordForm
        // The address is the link's, not known before it is used: an empty username field still tells
        // password managers (and Chromium's form check) which field is the new password's account.
        username=""
        submitLabel="Set Password"
        onSubmit={async (password) => {
          let email: string;
          try {
            ({ email } = await setPasswordWithLink({ token, password }));
          } catch (error) {
            // A used or expired link cannot be tried again: say so, with the ways in that remain.
            if (isSpentLink(error)) {
              setRefusal(error.message);
              return;
            }
            throw error;
          }
          const outcome = await (await session()).logIn(email, password, false);
          if (outcome.step !== 'done') {
            await navigate(paths.auth.login.getHref(), { replace: true });
            return;
          }
          await refresh();
          await navigate(paths.dashboard.root.getHref(), { replace: true });
        }}
      />
    </AuthCard>
  );
}

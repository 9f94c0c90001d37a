import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { ApiError, setActingOrganisation } from '../../../lib/api-client';
import { organisationMessages } from '../../../lib/contracts';
import { useAuth } from '../../auth/auth-provider';
import { acceptInvitation } from '../api/team';

export const acceptMessages = {
  title: 'You are invited to an organisation',
  signIn: 'Sign in with the address the invitation was sent to, or create an account with it, then accept.',
  failed: 'Failed to accept the invitation. Please try again.',
} as const;

const messageOf = (error: unknown): string => (error instanceof ApiError && error.status < 500 ? error.message : acceptMessages.failed);

/**
 * The invitation link's page: signed out, the way to sign in or sign up and come back here; signed
 * in, one button that accepts, then the dashboard acting on the organisation joined.
 */
export function AcceptInvitation({ token }: { token: string }) {
  const { status } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const here = `${location.pathname}${location.search}`;

  const accept = async () => {
    setFailure(undefined);
    setPending(true);
    try {
      const { organisation } = await acceptInvitation(token);
      setActingOrganisation(organisation.id);
      await queryClient.resetQueries();
      await navigate(paths.dashboard.root.getHref());
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <section aria-labelledby="accept-invitation-title" className="mx-auto max-w-lg space-y-4 px-4 py-16">
      <h1 id="accept-invitation-title" className="text-2xl font-bold text-slate-900 dark:text-slate-100">
        {acceptMessages.title}
      </h1>
      {token === '' ? (
        <FormMessage tone="error">{organisationMessages.token}</FormMessage>
      ) : status === 'signed-in' ? (
        <>
          <p className="text-slate-700 dark:text-slate-300">Accept it to see the organisation&apos;s reports with the role it gives you.</p>
          <Button onClick={() => void accept()} disabled={pending}>
            {pending ? 'Accepting...' : 'Accept invitation'}
          </Button>
        </>
      ) : status === 'loading' ? (
        <p role="status" className="text-slate-600 dark:text-slate-400">
          Checking authentication status
        </p>
      ) : (
        <>
          <p className="text-slate-700 dark:text-slate-300">{acceptMessages.signIn}</p>
          <div className="flex flex-wrap gap-3">
            <Link to={paths.auth.login.getHref(here)} className={buttonClass()}>
              Sign in
            </Link>
            <Link to={paths.auth.signup.getHref(here)} className={buttonClass('secondary')}>
              Create an account
            </Link>
          </div>
        </>
      )}
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
    </section>
  );
}

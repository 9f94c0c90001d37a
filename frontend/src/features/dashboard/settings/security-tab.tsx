import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { PASSWORD_POLICY, passwordPolicyProblems } from '../../../lib/contracts';
import { breachCount } from '../../auth/api/breached-password';
import { BREACHED_PASSWORD_MESSAGE } from '../../auth/components/password-policy-hint';
import { useMe } from '../../account/api/account';
import { useAuth } from '../../auth/auth-provider';
import { useDeleteAccount } from './api/delete-account';
import { TwoStepPanel } from './two-step-panel';
import { DangerButton, LoadingState, SettingsPanel } from './panel';

export const securityMessages = {
  mismatch: 'New passwords do not match',
  missing: 'Please fill in all three password fields.',
  policy: 'Your new password does not meet the password policy.',
  sameAsCurrent: 'Your new password must be different from your current one.',
  wrongCurrent: 'Your current password is incorrect.',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  changeFailed: 'Failed to change your password. Please try again.',
  changed: 'Your password has been changed.',
  deleteFailed: 'Failed to delete your account. Please try again.',
  demo: 'This is the shared demo account: its password cannot be changed and it cannot be deleted.',
} as const;

const nameOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : undefined;

/** Cognito's refusals, in words the user can act on. */
function changePasswordMessage(error: unknown): string {
  switch (nameOf(error)) {
    case 'NotAuthorizedException':
      return securityMessages.wrongCurrent;
    case 'LimitExceededException':
    case 'TooManyRequestsException':
      return securityMessages.tooManyAttempts;
    case 'InvalidPasswordException':
      return securityMessages.policy;
    default:
      return securityMessages.changeFailed;
  }
}

/** Settings → Security: two-step sign-in, change password (Cognito checks the current one) and delete the account. */
export function SecurityTab() {
  const me = useMe();
  if (me.isPending) return <LoadingState label="Loading your account..." />;
  // Until the account says whether it is the demo's, nothing here is offered.
  if (me.isError) return <FormMessage tone="error">Failed to load your account. Please try again.</FormMessage>;
  if (me.data.user.isDemo) {
    return (
      <SettingsPanel title="Security">
        <p role="note" className="text-sm text-slate-700 dark:text-slate-300">
          {securityMessages.demo}
        </p>
      </SettingsPanel>
    );
  }
  return (
    <div className="space-y-6">
      <TwoStepPanel />
      <ChangePasswordForm />
      <DeleteAccount />
    </div>
  );
}

type Message = { tone: 'error' | 'success'; text: string };

function ChangePasswordForm() {
  const { session, user } = useAuth();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [message, setMessage] = useState<Message | undefined>();
  const [pending, setPending] = useState(false);
  const problems = passwordPolicyProblems(next);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fail = (text: string) => setMessage({ tone: 'error', text });
    if (current === '' || next === '' || confirm === '') return fail(securityMessages.missing);
    if (next !== confirm) return fail(securityMessages.mismatch);
    if (problems.length > 0) return fail(securityMessages.policy);
    if (next === current) return fail(securityMessages.sameAsCurrent);
    setMessage(undefined);
    setPending(true);
    try {
      // Known breached passwords are refused here as at signup (the check is skipped when unreachable).
      const breaches = await breachCount(next);
      if (breaches !== undefined && breaches > 0) return fail(BREACHED_PASSWORD_MESSAGE);
      await (await session()).changePassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      setMessage({ tone: 'success', text: securityMessages.changed });
    } catch (error) {
      fail(changePasswordMessage(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <SettingsPanel title="Change Password">
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        {/* For password managers: the account this password belongs to (browsers ask for a username field). */}
        <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          revealable
          value={current}
          onChange={(event) => setCurrent(event.target.value)}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          revealable
          value={next}
          onChange={(event) => setNext(event.target.value)}
          hint={
            <>
              <p>
                At least {PASSWORD_POLICY.minLength} characters, with upper and lower case letters, a number and a symbol.
              </p>
              {next !== '' && problems.length > 0 && (
                <ul data-testid="password-problems" className="mt-1 list-disc pl-5 text-amber-800 dark:text-amber-300">
                  {problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              )}
            </>
          }
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          revealable
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
        {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
        <Button type="submit" disabled={pending}>
          {pending && <Spinner className="size-4" />}
          Update Password
        </Button>
      </form>
    </SettingsPanel>
  );
}

function DeleteAccount() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const confirmDelete = () => {
    setError(undefined);
    remove.mutate(undefined, {
      onSuccess: async () => {
        // The Cognito user is gone: the local session is cleared all the same, then home (SPEC: logout returns home).
        await signOut().catch(() => undefined);
        navigate(paths.home.getHref(), { replace: true });
      },
      onError: () => setError(securityMessages.deleteFailed),
    });
  };

  return (
    <SettingsPanel
      title="Delete Account"
      description="Permanently delete your account, your domains, your audit history and your settings. This cannot be undone."
    >
      {confirming ? (
        <div role="group" aria-label="Confirm account deletion" className="rounded-md border border-red-200 bg-red-50 p-4 dark:border-red-800 dark:bg-red-950">
          <p className="text-sm font-semibold text-red-900 dark:text-red-200">Are you sure? Everything in your account will be deleted.</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <DangerButton onClick={confirmDelete} disabled={remove.isPending}>
              {remove.isPending && <Spinner className="size-4" />}
              Yes, delete my account
            </DangerButton>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={remove.isPending}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <DangerButton onClick={() => setConfirming(true)}>Delete Account</DangerButton>
      )}
      {error && (
        <div className="mt-4">
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      )}
    </SettingsPanel>
  );
}

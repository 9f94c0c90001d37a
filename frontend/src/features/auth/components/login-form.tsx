import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { useAuth } from '../auth-provider';
import { safeReturnUrl } from '../return-url';
import { AuthCard, authErrorMessage, linkClass } from './auth-card';
import { ConfirmCodeForm } from './confirm-code-form';
import { NewPasswordForm } from './new-password-form';

type Step = 'credentials' | 'new-password-required' | 'confirm-sign-up' | 'totp-code';

/** SPEC §2 Login: email, password, remember me; then the step Cognito asks for, if any. */
export function LoginForm() {
  const { session, refresh, demo } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [step, setStep] = useState<Step>('credentials');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  async function finish() {
    await refresh();
    await navigate(safeReturnUrl(searchParams.get('returnUrl')), { replace: true });
  }

  async function signIn(credentials = { email, password }) {
    const outcome = await (await session()).logIn(credentials.email.trim(), credentials.password, remember);
    if (outcome.step === 'done') return finish();
    setStep(outcome.step);
  }

  async function attempt(credentials: { email: string; password: string }) {
    setBusy(true);
    try {
      await signIn(credentials);
    } catch (error) {
      setErrors({ form: authErrorMessage(error, 'Login failed. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = {
      email: email.trim() ? undefined : 'Email is required',
      password: password ? undefined : 'Password is required',
    };
    setErrors(next);
    if (next.email || next.password) return;
    await attempt({ email, password });
  }

  if (step === 'new-password-required') {
    return (
      <AuthCard title="Set your password" intro="You signed in with a temporary password. Choose your own to continue.">
        <NewPasswordForm
          username={email.trim()}
          onSubmit={async (newPassword) => {
            const outcome = await (await session()).setFirstPassword(newPassword);
            if (outcome.step !== 'done') throw new Error('Login failed. Please try again.');
            await finish();
          }}
        />
      </AuthCard>
    );
  }

  if (step === 'totp-code') {
    return (
      <AuthCard title="Two-step sign-in" intro="Enter the 6-digit code from your authenticator app.">
        <TotpCodeForm
          onSubmit={async (code) => {
            const outcome = await (await session()).answerTotpCode(code);
            if (outcome.step !== 'done') throw new Error('Login failed. Please try again.');
            await finish();
          }}
        />
      </AuthCard>
    );
  }

  if (step === 'confirm-sign-up') {
    return (
      <AuthCard title="Confirm your email" intro={`Enter the code we emailed to ${email.trim()}.`}>
        <ConfirmCodeForm
          onConfirm={async (code) => {
            await (await session()).confirmRegistration(email.trim(), code);
            await signIn();
          }}
          onResend={async () => (await session()).resendRegistrationCode(email.trim())}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Client Login"
      intro={
        <>
          No account yet?{' '}
          <Link to={paths.auth.signup.getHref(searchParams.get('returnUrl') ?? undefined)} className={linkClass}>
            Create one
          </Link>
        </>
      }
    >
      {demo && (
        <div className="mb-5 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
          <p className="font-semibold">Demo account</p>
          <p className="mt-1">
            Sign in as <span className="font-mono">{demo.email}</span> with the password <span className="font-mono">{demo.password}</span> to see sample data.
          </p>
          <button
            type="button"
            className={`mt-2 ${linkClass}`}
            disabled={busy}
            onClick={() => {
              // The form shows what is used, and the demo account is signed in at once (not merely filled in).
              setEmail(demo.email);
              setPassword(demo.password);
              setErrors({});
              void attempt(demo);
            }}
          >
            Use the demo account
          </button>
        </div>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <TextField label="Email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} required />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          revealable
          required
        />
        <div className="flex items-center justify-between text-sm">
          <label className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="size-4 accent-blue-700" />
            Remember me
          </label>
          <Link to={paths.auth.resetPassword.getHref()} className={linkClass}>
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy && <Spinner className="size-4" />}
          {busy ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </AuthCard>
  );
}

/** Cognito's answer to a wrong or expired code, in words the user can act on. */
export const totpMessages = {
  format: 'Enter the 6 digits your authenticator app shows.',
  wrong: 'That code is not right. Enter the code your app shows now.',
} as const;

function TotpCodeForm({ onSubmit }: { onSubmit: (code: string) => Promise<void> }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) return setError(totpMessages.format);
    setError(undefined);
    setBusy(true);
    try {
      await onSubmit(digits);
    } catch (failure) {
      setError((failure as { name?: string }).name === 'CodeMismatchException' ? totpMessages.wrong : authErrorMessage(failure, 'Login failed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      {error && <FormMessage tone="error">{error}</FormMessage>}
      <TextField label="Authentication code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} value={code} onChange={(e) => setCode(e.target.value)} required />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <Spinner className="size-4" />}
        Verify
      </Button>
    </form>
  );
}

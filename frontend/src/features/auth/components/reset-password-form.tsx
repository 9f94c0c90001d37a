import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { useAuth } from '../auth-provider';
import { AuthCard, linkClass } from './auth-card';
import { NewPasswordForm } from './new-password-form';

type Step = 'email' | 'code' | 'done';

/** SPEC §4 "Password reset": form, then 'Check your email' — where the emailed code sets a new password. */
export function ResetPasswordForm() {
  const { session } = useAuth();
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function requestCode(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setError('Email is required');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await (await session()).requestPasswordReset(email.trim());
      setStep('code');
    } catch {
      setError('An unexpected error occurred. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  if (step === 'done') {
    return (
      <AuthCard title="Password changed">
        <FormMessage tone="success">Your password has been reset. You can sign in with it now.</FormMessage>
        <Link to={paths.auth.login.getHref()} className={`mt-4 inline-block ${linkClass}`}>
          Go to sign in
        </Link>
      </AuthCard>
    );
  }

  if (step === 'code') {
    return (
      <AuthCard
        title="Check your email"
        intro={`If ${email.trim()} has an account, we have emailed it a 6-digit code. Enter it with your new password.`}
      >
        <NewPasswordForm
          withCode
          username={email.trim()}
          submitLabel="Reset Password"
          onSubmit={async (password, code) => {
            await (await session()).completePasswordReset(email.trim(), code, password);
            setStep('done');
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password" intro="Enter your account's email and we will send you a code to choose a new password.">
      <form noValidate onSubmit={(event) => void requestCode(event)} className="space-y-4">
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy && <Spinner className="size-4" />}
          Send Reset Code
        </Button>
        <Link to={paths.auth.login.getHref()} className={`block text-center text-sm ${linkClass}`}>
          Back to sign in
        </Link>
      </form>
    </AuthCard>
  );
}

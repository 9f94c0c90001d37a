import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { passwordProblems, PasswordPolicyHint } from './password-policy-hint';
import { authErrorMessage } from './auth-card';

/** A new password typed twice and checked against the pool's policy before Cognito sees it. */
export function NewPasswordForm({
  onSubmit,
  submitLabel = 'Set Password',
  withCode = false,
  username,
}: {
  onSubmit: (password: string, code: string) => Promise<void>;
  submitLabel?: string;
  /** Password reset: the emailed code comes with the new password. */
  withCode?: boolean;
  /** The account's email, for password managers (a hidden username field, as browsers ask). */
  username?: string;
}) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ code?: string; password?: string; confirm?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = await passwordProblems(password);
    const next = {
      code: withCode && !/^\d{6}$/.test(code.trim()) ? 'Enter the 6-digit code from the email' : undefined,
      password: problems[0],
      confirm: password !== confirm ? 'Passwords do not match' : undefined,
    };
    setErrors(next);
    if (next.code || next.password || next.confirm) return;
    setBusy(true);
    try {
      await onSubmit(password, code.trim());
    } catch (error) {
      setErrors({ form: authErrorMessage(error, 'An unexpected error occurred. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
      {username !== undefined && <input type="email" name="username" autoComplete="username" value={username} readOnly hidden />}
      {withCode && (
        <TextField label="Verification code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} error={errors.code} />
      )}
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
        hint={<PasswordPolicyHint />}
        revealable
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={errors.confirm}
        revealable
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <Spinner className="size-4" />}
        {submitLabel}
      </Button>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { apiPut } from '../../../lib/api-client';
import { routePath } from '../../../lib/contracts';
import { useAuth } from '../auth-provider';
import { safeReturnUrl } from '../return-url';
import { AuthCard, authErrorMessage, linkClass } from './auth-card';
import { ConfirmCodeForm } from './confirm-code-form';
import { passwordProblems, PasswordPolicyHint } from './password-policy-hint';

interface Fields {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  password: string;
  confirmPassword: string;
}

type Errors = Partial<Record<keyof Fields | 'terms' | 'form', string>>;

const EMPTY: Fields = { firstName: '', lastName: '', email: '', company: '', password: '', confirmPassword: '' };

/** SPEC §5 "Signup requires…": each missing field by name, then the spec's two messages. */
const required: Record<keyof Fields, string> = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Email is required',
  company: 'Company is required',
  password: 'Password is required',
  confirmPassword: 'Please confirm your password',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function validate(fields: Fields, terms: boolean): Promise<Errors> {
  const errors: Errors = {};
  for (const key of Object.keys(required) as (keyof Fields)[]) {
    if (!fields[key].trim()) errors[key] = required[key];
  }
  if (!errors.email && !EMAIL.test(fields.email.trim())) errors.email = 'Please enter a valid email address';
  if (!errors.confirmPassword && fields.password !== fields.confirmPassword) errors.confirmPassword = 'Passwords do not match';
  if (!terms) errors.terms = 'Please agree to the terms and conditions';
  if (!errors.password) {
    const problems = await passwordProblems(fields.password);
    if (problems.length > 0) errors.password = problems.join('. ');
  }
  return errors;
}

/** SPEC §2 Signup, on Cognito: create the user, confirm the emailed code, sign in, save the profile. */
export function SignupForm() {
  const { session, refresh } = useAuth();
  const navigate = useNavigate();
  // Where the visitor was headed (a report's unlock, say): kept through the confirmation code.
  const [searchParams] = useSearchParams();
  const returnUrl = searchParams.get('returnUrl') ?? undefined;
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const field = (key: keyof Fields) => ({
    value: fields[key],
    onChange: (event: { target: { value: string } }) => setFields((current) => ({ ...current, [key]: event.target.value })),
    error: errors[key],
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const found = await validate(fields, terms);
      setErrors(found);
      if (Object.keys(found).length > 0) return;
      await (
        await session()
      ).register({ email: fields.email.trim(), password: fields.password, firstName: fields.firstName.trim(), lastName: fields.lastName.trim() });
      setConfirming(true);
    } catch (error) {
      setErrors({ form: authErrorMessage(error, 'An unexpected error occurred. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  async function confirm(code: string) {
    const module = await session();
    const email = fields.email.trim();
    await module.confirmRegistration(email, code);
    const outcome = await module.logIn(email, fields.password, true);
    if (outcome.step !== 'done') throw new Error('Your account is confirmed. Please sign in.');
    // The profile is saved before the app learns it is signed in, so the dashboard opens on the full name.
    await apiPut(routePath('update-me'), { firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), company: fields.company.trim() });
    await refresh();
    await navigate(safeReturnUrl(returnUrl), { replace: true });
  }

  if (confirming) {
    return (
      <AuthCard title="Confirm your email" intro={`We emailed a 6-digit code to ${fields.email.trim()}. Enter it to finish creating your account.`}>
        <ConfirmCodeForm onConfirm={confirm} onResend={async () => (await session()).resendRegistrationCode(fields.email.trim())} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create your account"
      intro={
        <>
          Already have an account?{' '}
          <Link to={paths.auth.login.getHref(returnUrl)} className={linkClass}>
            Sign in
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
          <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
        </div>
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <TextField label="Company" autoComplete="organization" {...field('company')} />
        <TextField label="Password" type="password" autoComplete="new-password" revealable hint={<PasswordPolicyHint />} {...field('password')} />
        <TextField label="Confirm password" type="password" autoComplete="new-password" revealable {...field('confirmPassword')} />
        <div>
          <label className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-300">
            <input
              type="checkbox"
              checked={terms}
              onChange={(e) => setTerms(e.target.checked)}
              aria-invalid={errors.terms ? true : undefined}
              className="mt-0.5 size-4 shrink-0 accent-blue-700"
            />
            <span>
              I agree to the{' '}
              <Link to={paths.terms.getHref()} target="_blank" className={linkClass}>
                Terms of Service
              </Link>{' '}
              and the{' '}
              <Link to={paths.privacy.getHref()} target="_blank" className={linkClass}>
                Privacy Policy
              </Link>
            </span>
          </label>
          {errors.terms && <p className="mt-1 text-sm text-red-700 dark:text-red-400">{errors.terms}</p>}
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy && <Spinner className="size-4" />}
          {busy ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
    </AuthCard>
  );
}

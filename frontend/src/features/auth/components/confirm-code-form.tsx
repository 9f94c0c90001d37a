import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { authErrorMessage } from './auth-card';

/** The 6-digit code Cognito emailed, with a way to have it sent again. */
export function ConfirmCodeForm({ onConfirm, onResend }: { onConfirm: (code: string) => Promise<void>; onResend: () => Promise<void> }) {
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string }>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setMessage({ tone: 'error', text: 'Enter the 6-digit code from the email' });
      return;
    }
    setBusy(true);
    setMessage(undefined);
    try {
      await onConfirm(code.trim());
    } catch (error) {
      setMessage({ tone: 'error', text: authErrorMessage(error, 'An unexpected error occurred. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    try {
      await onResend();
      setMessage({ tone: 'success', text: 'A new code is on its way.' });
    } catch (error) {
      setMessage({ tone: 'error', text: authErrorMessage(error, 'An unexpected error occurred. Please try again.') });
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
      <TextField label="Confirmation code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <Spinner className="size-4" />}
        Confirm
      </Button>
      <button type="button" onClick={() => void resend()} className="w-full text-sm font-semibold text-blue-700 hover:underline dark:text-blue-400">
        Send the code again
      </button>
    </form>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { content } from '../../../config/content';
import { useAuth } from '../../auth/auth-provider';
import { twoStepKeys, useTwoStepStatus } from './api/two-step';
import { CopyableValue } from './copyable-value';
import { SettingsPanel } from './panel';

export const twoStepText = {
  title: 'Two-step sign-in',
  off: 'Two-step sign-in is off. With it on, signing in asks for a 6-digit code from an authenticator app as well as your password.',
  on: 'Two-step sign-in is on: signing in asks for the code from your authenticator app.',
  required: 'You manage a team or clients: two-step sign-in is required, and it cannot be turned off while you do.',
  requiredOff: 'Turn on two-step sign-in to manage your team: inviting, changing and removing members, and managing clients, need it.',
  setUp: 'Set up two-step sign-in',
  scan: 'Add this account to your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…): open the link on this device, or enter the secret key by hand. Then type the 6-digit code the app shows.',
  format: 'Enter the 6 digits your authenticator app shows.',
  wrong: 'That code is not right. Enter the code your app shows now.',
  failed: 'Two-step sign-in could not be changed. Please try again.',
  enabled: 'Two-step sign-in is on.',
  disabled: 'Two-step sign-in is off.',
  turnOff: 'Turn off two-step sign-in',
  unavailable: 'Two-step sign-in could not be loaded. Please reload the page.',
} as const;

type Setup = { secret: string; uri: string };

/** Settings → Security: TOTP through Cognito (associate, verify the app's code, make it preferred), off unless required. */
export function TwoStepPanel() {
  const { session, user } = useAuth();
  const queryClient = useQueryClient();
  const status = useTwoStepStatus();
  const [setup, setSetup] = useState<Setup | undefined>();
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | undefined>();
  const [busy, setBusy] = useState(false);

  // Plain text, not a status region: the password form's answer is the page's status.
  if (status.isPending) {
    return (
      <SettingsPanel title={twoStepText.title}>
        <p className="text-sm text-slate-600 dark:text-slate-400">Loading two-step sign-in...</p>
      </SettingsPanel>
    );
  }
  // Not an alert: the rest of Security (password, deletion) works without it.
  if (status.isError) {
    return (
      <SettingsPanel title={twoStepText.title}>
        <p className="text-sm text-slate-700 dark:text-slate-300">{twoStepText.unavailable}</p>
      </SettingsPanel>
    );
  }
  const { enabled, required } = status.data;

  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setMessage(undefined);
    try {
      await step();
    } catch (error) {
      const name = (error as { name?: string }).name;
      setMessage({ tone: 'error', text: name === 'CodeMismatchException' || name === 'EnableSoftwareTokenMFAException' ? twoStepText.wrong : twoStepText.failed });
    } finally {
      setBusy(false);
    }
  };

  const begin = () => run(async () => setSetup(await (await session()).startTotpSetup(user?.email ?? '', content.productName)));

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) return setMessage({ tone: 'error', text: twoStepText.format });
    void run(async () => {
      await (await session()).finishTotpSetup(digits);
      setSetup(undefined);
      setCode('');
      await queryClient.invalidateQueries({ queryKey: twoStepKeys.all });
      setMessage({ tone: 'success', text: twoStepText.enabled });
    });
  };

  const turnOff = () =>
    run(async () => {
      await (await session()).turnOffTotp();
      await queryClient.invalidateQueries({ queryKey: twoStepKeys.all });
      setMessage({ tone: 'success', text: twoStepText.disabled });
    });

  return (
    <SettingsPanel title={twoStepText.title}>
      <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
        <p data-testid="two-step-state">{enabled ? twoStepText.on : twoStepText.off}</p>
        {required && <p role="note">{enabled ? twoStepText.required : twoStepText.requiredOff}</p>}
        {!enabled && !setup && (
          <Button onClick={() => void begin()} disabled={busy}>
            {busy && <Spinner className="size-4" />}
            {twoStepText.setUp}
          </Button>
        )}
        {!enabled && setup && (
          <form noValidate onSubmit={confirm} className="space-y-4">
            <p>{twoStepText.scan}</p>
            <p>
              <a href={setup.uri} className="font-semibold text-blue-700 underline-offset-4 hover:underline dark:text-blue-400">
                Open in authenticator app
              </a>
            </p>
            <dl>
              <CopyableValue label="Secret key" value={setup.secret} />
            </dl>
            <TextField label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={7} value={code} onChange={(e) => setCode(e.target.value)} />
            <Button type="submit" disabled={busy}>
              {busy && <Spinner className="size-4" />}
              Turn on two-step sign-in
            </Button>
          </form>
        )}
        {enabled && !required && (
          <Button variant="secondary" onClick={() => void turnOff()} disabled={busy}>
            {twoStepText.turnOff}
          </Button>
        )}
        {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
      </div>
    </SettingsPanel>
  );
}

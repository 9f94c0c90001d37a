import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { profileUpdateSchema, type ProfileUpdateInput } from '../../../lib/contracts';
import { exportMyData, useMe, useUpdateProfile, type Account } from '../../account/api/account';
import { myDataFileName, saveJson } from './lib/save-json';
import { LoadingState, SettingsPanel } from './panel';

type ProfileValues = Required<ProfileUpdateInput>;
type FieldName = keyof ProfileValues;
type Message = { tone: 'error' | 'success'; text: string };

const SAVED = 'Your profile has been saved.';
const SAVE_FAILED = 'Failed to save your profile. Please try again.';
const EXPORT_FAILED = 'Failed to download your data. Please try again.';

const valuesOf = ({ user }: Account): ProfileValues => ({
  firstName: user.firstName,
  lastName: user.lastName,
  company: user.company,
  mobileNumber: user.mobileNumber ?? '',
});

/** Field name → its first message: the same shape the API's `fields` has. */
function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Partial<Record<FieldName, string>> {
  const fields: Partial<Record<FieldName, string>> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '') as FieldName;
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Settings → Profile: the editable profile (same contract as `PUT /api/me`) and "Download my data". */
export function ProfileTab() {
  const me = useMe();
  if (me.isPending) return <LoadingState label="Loading your profile..." />;
  if (me.isError) return <FormMessage tone="error">Failed to load your profile. Please try again.</FormMessage>;
  return (
    <div className="space-y-6">
      <ProfileForm key={me.data.user.id} account={me.data} />
      <DownloadMyData />
    </div>
  );
}

function ProfileForm({ account }: { account: Account }) {
  const update = useUpdateProfile();
  const [values, setValues] = useState<ProfileValues>(() => valuesOf(account));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [message, setMessage] = useState<Message | undefined>();

  const field = (name: FieldName) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setValues((previous) => ({ ...previous, [name]: event.target.value })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(undefined);
    // The API's own contract: what it would refuse is refused here, and nothing is sent.
    const parsed = profileUpdateSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    // What was typed goes to the API, which normalises the mobile number to E.164 and answers the saved profile.
    update.mutate(values, {
      onSuccess: (saved) => {
        setValues(valuesOf(saved));
        setMessage({ tone: 'success', text: SAVED });
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.body.fields : undefined;
        if (typeof fields === 'object' && fields !== null) setErrors(fields as Partial<Record<FieldName, string>>);
        setMessage({ tone: 'error', text: error instanceof ApiError && error.status < 500 ? error.message : SAVE_FAILED });
      },
    });
  };

  return (
    <SettingsPanel title="Profile Information" description="Your name and company appear on your reports and in the dashboard.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
          <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
        </div>
        <TextField
          label="Email"
          type="email"
          value={account.user.email}
          readOnly
          hint="The email you sign in with. It cannot be changed here."
        />
        <TextField label="Company" autoComplete="organization" {...field('company')} />
        <TextField
          label="Mobile number (optional)"
          type="tel"
          autoComplete="tel"
          hint="For SMS security alerts. Saved in international format, e.g. +61412345678; leave empty to remove it."
          {...field('mobileNumber')}
        />
        {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <Spinner className="size-4" />}
          Save Changes
        </Button>
      </form>
    </SettingsPanel>
  );
}

function DownloadMyData() {
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  const download = async () => {
    setState('loading');
    try {
      saveJson(await exportMyData(), myDataFileName(new Date()));
      setState('idle');
    } catch {
      setState('failed');
    }
  };

  return (
    <SettingsPanel
      title="Your data"
      description="Download everything your account holds — profile, domains, audits and settings — as a JSON file."
    >
      <div className="space-y-3">
        <Button variant="secondary" onClick={() => void download()} disabled={state === 'loading'}>
          {state === 'loading' && <Spinner className="size-4" />}
          Download my data
        </Button>
        {state === 'failed' && <FormMessage tone="error">{EXPORT_FAILED}</FormMessage>}
      </div>
    </SettingsPanel>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import {
  alertDestinationMessages,
  createDestinationSchema,
  DESTINATION_EVENT_LABELS,
  DESTINATION_KIND_LABELS,
  DESTINATION_NAME_MAX,
  DESTINATION_URL_MAX,
  DISABLE_AFTER_ABANDONED,
  destinationEvents,
  destinationKinds,
  updateDestinationSchema,
  type CreatedDestination,
  type DeliveryView,
  type DestinationEvent,
  type DestinationKind,
  type DestinationView,
} from '../../../lib/contracts';

import { useCreateDestination, useDeleteDestination, useDeliveries, useDestinations, useSendTestAlert, useUpdateDestination } from './api/alert-destinations';
import { DangerButton, LoadingState, SettingsPanel } from './panel';
import { SecretShownOnce } from './secret-shown-once';

export const destinationsTabMessages = {
  loadFailed: 'Failed to load your alert destinations. Please try again.',
  saveFailed: 'Failed to save the destination. Please try again.',
  deleteFailed: 'Failed to delete the destination. Please try again.',
  testFailed: 'Failed to send the test. Please try again.',
  logFailed: 'Failed to load the delivery log. Please try again.',
  none: 'No alert destinations yet.',
  noDeliveries: 'Nothing sent to this destination yet.',
  secretWarning: 'Copy this signing secret now: it will not be shown again. Your receiver needs it to check each request’s X-Rampart-Signature.',
  copied: 'Copied to clipboard!',
  copyFailed: 'Copying failed: select the secret and copy it by hand.',
  secretHintNote: '(its start only: the whole secret is shown once, with a Copy button, when the webhook is added, and is kept only for signing)',
} as const;

const URL_PLACEHOLDERS: Record<DestinationKind, string> = {
  slack: 'https://hooks.slack.com/services/…',
  teams: 'https://….logic.azure.com/workflows/…',
  webhook: 'https://tickets.example.com/rampart',
};

const URL_HELP: Record<DestinationKind, string> = {
  slack: 'In Slack: an app with Incoming Webhooks, then “Add New Webhook to Workspace” and the channel.',
  teams: 'In Teams: the channel’s Workflows, “Post to a channel when a webhook request is received”, then copy its URL.',
  webhook: 'Any https address of yours. Each request is JSON signed with a secret shown once (see the README’s “Receiving the generic webhook”).',
};

/** A 4xx carries the API's own words; anything else gets the fallback. */
const messageOf = (error: unknown, fallback: string): string => (error instanceof ApiError && error.status < 500 ? error.message : fallback);

const dayAndTime = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

const eventNames = (event: string) =>
  event === 'test'
    ? 'Test'
    : event
        .split(',')
        .map((id) => DESTINATION_EVENT_LABELS[id as DestinationEvent] ?? id)
        .join(', ');

/** Settings → Alert destinations (issue 22, Monitor Plus): Slack, Teams and signed webhooks, a test send and each one's delivery log. */
export function DestinationsTab() {
  const list = useDestinations();
  const [created, setCreated] = useState<CreatedDestination | undefined>();

  if (list.isPending) return <LoadingState label="Loading your alert destinations..." />;
  if (list.isError) return <FormMessage tone="error">{destinationsTabMessages.loadFailed}</FormMessage>;
  const { destinations, allowed, limit } = list.data;

  return (
    <div className="space-y-6">
      {allowed ? (
        <SettingsPanel
          title="Add an alert destination"
          description={`Monitoring alerts go to your email as before, and also to Slack, Microsoft Teams or a webhook of yours. Up to ${limit} destinations; one that fails ${DISABLE_AFTER_ABANDONED} alerts in a row is turned off and you get an email.`}
        >
          {destinations.length >= limit ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">{alertDestinationMessages.limitReached}</p>
          ) : (
            <DestinationForm onSaved={(answer) => answer && setCreated(answer)} />
          )}
        </SettingsPanel>
      ) : (
        <SettingsPanel title="Alert destinations">
          <p role="note" className="text-sm text-slate-700 dark:text-slate-300">
            {alertDestinationMessages.planRequired}
          </p>
          <Link to={paths.dashboard.section.getHref('subscription')} className={`${buttonClass()} mt-4`}>
            Upgrade your plan
          </Link>
        </SettingsPanel>
      )}
      {created?.secret && <SecretShownOnce name="Your webhook's signing secret" label={`Signing secret of “${created.destination.name}”`} secret={created.secret} messages={destinationsTabMessages} onDone={() => setCreated(undefined)} />}
      <SettingsPanel title="Your alert destinations">
        {destinations.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{destinationsTabMessages.none}</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {destinations.map((destination) => (
              <DestinationRow key={destination.id} destination={destination} allowed={allowed} />
            ))}
          </ul>
        )}
      </SettingsPanel>
    </div>
  );
}

/** Adds a destination, or (given one) edits its name, address and events; the address left empty is kept. */
function DestinationForm({ existing, onSaved }: { existing?: DestinationView; onSaved: (created?: CreatedDestination) => void }) {
  const create = useCreateDestination();
  const update = useUpdateDestination();
  const kindId = useId();
  const eventsId = useId();
  const [kind, setKind] = useState<DestinationKind>(existing?.kind ?? 'slack');
  const [name, setName] = useState(existing?.name ?? '');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<DestinationEvent[]>(existing?.events ?? [...destinationEvents]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const pending = create.isPending || update.isPending;

  const toggle = (event: DestinationEvent, on: boolean) => setEvents((current) => destinationEvents.filter((id) => (id === event ? on : current.includes(id))));

  const submit = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    setFailure(undefined);
    const parsed = existing
      ? updateDestinationSchema.safeParse({ name, events, ...(url.trim() === '' ? {} : { url }) })
      : createDestinationSchema.safeParse({ kind, name, url, events });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? '_'), issue.message])));
      return;
    }
    setErrors({});
    const onError = (error: unknown) => {
      const fields = error instanceof ApiError ? (error.body.fields as Record<string, string> | undefined) : undefined;
      if (fields?.url) setErrors({ url: fields.url });
      setFailure(messageOf(error, destinationsTabMessages.saveFailed));
    };
    if (existing) update.mutate({ destinationId: existing.id, changes: parsed.data }, { onSuccess: () => onSaved(), onError });
    else
      create.mutate(parsed.data as Parameters<typeof create.mutate>[0], {
        onSuccess: (answer) => {
          setName('');
          setUrl('');
          onSaved(answer);
        },
        onError,
      });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={existing ? `Edit ${existing.name}` : 'Add an alert destination'}>
      <div className="grid gap-3 sm:grid-cols-2">
        {!existing && (
          <div>
            <label htmlFor={kindId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
              Send to
            </label>
            <select
              id={kindId}
              value={kind}
              onChange={(event) => setKind(event.target.value as DestinationKind)}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:outline-2 focus:outline-blue-700 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100"
            >
              {destinationKinds.map((id) => (
                <option key={id} value={id}>
                  {DESTINATION_KIND_LABELS[id]}
                </option>
              ))}
            </select>
          </div>
        )}
        <TextField label="Name" name="name" autoComplete="off" maxLength={DESTINATION_NAME_MAX} placeholder="#security channel" value={name} error={errors.name} onChange={(event) => setName(event.target.value)} />
      </div>
      <TextField
        label={existing ? `New address (now ${existing.urlHint}; leave empty to keep it)` : 'Webhook address'}
        name="url"
        type="url"
        autoComplete="off"
        inputMode="url"
        maxLength={DESTINATION_URL_MAX}
        placeholder={URL_PLACEHOLDERS[existing?.kind ?? kind]}
        value={url}
        error={errors.url}
        hint={URL_HELP[existing?.kind ?? kind]}
        onChange={(event) => setUrl(event.target.value)}
      />
      <fieldset aria-describedby={errors.events ? `${eventsId}-error` : undefined}>
        <legend className="text-sm font-semibold text-slate-800 dark:text-slate-200">Events to send</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {destinationEvents.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
              <input type="checkbox" checked={events.includes(event)} onChange={(change) => toggle(event, change.target.checked)} className="size-4 accent-blue-700" />
              {DESTINATION_EVENT_LABELS[event]}
            </label>
          ))}
        </div>
        {errors.events && (
          <p id={`${eventsId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
            {errors.events}
          </p>
        )}
      </fieldset>
      <div className="flex gap-3">
        <Button type="submit" disabled={pending}>
          {pending && <Spinner className="size-4" />}
          {existing ? 'Save changes' : 'Add destination'}
        </Button>
        {existing && (
          <Button variant="secondary" onClick={() => onSaved()} disabled={pending}>
            Cancel
          </Button>
        )}
      </div>
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
    </form>
  );
}


function DestinationRow({ destination, allowed }: { destination: DestinationView; allowed: boolean }) {
  const headingId = useId();
  const logId = useId();
  const remove = useDeleteDestination();
  const update = useUpdateDestination();
  const test = useSendTestAlert();
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const [logOpen, setLogOpen] = useState(false);
  const [testResult, setTestResult] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  const sendTest = () => {
    setFailure(undefined);
    setTestResult(undefined);
    test.mutate(destination.id, {
      onSuccess: ({ delivery }) =>
        setTestResult(
          delivery.outcome === 'delivered'
            ? `Test delivered (HTTP ${delivery.statusCode ?? ''}).`
            : `Test not delivered: ${delivery.error ?? `HTTP ${delivery.statusCode ?? ''}`}.`,
        ),
      onError: (error) => setFailure(messageOf(error, destinationsTabMessages.testFailed)),
    });
  };

  const setEnabled = (enabled: boolean) => {
    setFailure(undefined);
    update.mutate({ destinationId: destination.id, changes: { enabled } }, { onError: (error) => setFailure(messageOf(error, destinationsTabMessages.saveFailed)) });
  };

  const confirmDelete = () => {
    setFailure(undefined);
    remove.mutate(destination.id, {
      onError: (error) => {
        setMode('view');
        setFailure(messageOf(error, destinationsTabMessages.deleteFailed));
      },
    });
  };

  return (
    <li aria-labelledby={headingId} className="space-y-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 id={headingId} className="text-base font-semibold break-all text-slate-900 dark:text-white">
          {destination.name}
        </h3>
        <span className="text-sm text-slate-600 dark:text-slate-400">{DESTINATION_KIND_LABELS[destination.kind]}</span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${destination.enabled ? 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100' : 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100'}`}
        >
          {destination.enabled ? 'Enabled' : 'Disabled'}
        </span>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm text-slate-600 sm:grid-cols-2 dark:text-slate-400">
        <div>
          <dt className="inline">Address </dt>
          <dd className="inline font-mono break-all">{destination.urlHint}</dd>
        </div>
        <div>
          <dt className="inline">Events </dt>
          <dd className="inline">{destination.events.map((event) => DESTINATION_EVENT_LABELS[event]).join(', ')}</dd>
        </div>
        {destination.secretHint && (
          <div>
            <dt className="inline">Signing secret </dt>
            <dd className="inline">
              <span className="font-mono">{destination.secretHint}</span> {destinationsTabMessages.secretHintNote}
            </dd>
          </div>
        )}
      </dl>
      {!destination.enabled && destination.disabledReason && (
        <p role="note" className="text-sm text-red-800 dark:text-red-300">
          {`${destination.disabledReason}. Check the address and the delivery log, then enable it again.`}
        </p>
      )}
      {mode === 'edit' ? (
        <DestinationForm existing={destination} onSaved={() => setMode('view')} />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={sendTest} disabled={!allowed || test.isPending} aria-label={`Send test to ${destination.name}`}>
            {test.isPending && <Spinner className="size-4" />}
            Send test
          </Button>
          <Button variant="secondary" onClick={() => setMode('edit')} disabled={!allowed} aria-label={`Edit ${destination.name}`}>
            Edit
          </Button>
          <Button variant="secondary" onClick={() => setEnabled(!destination.enabled)} disabled={!allowed || update.isPending} aria-label={`${destination.enabled ? 'Disable' : 'Enable'} ${destination.name}`}>
            {destination.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button variant="secondary" aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen((open) => !open)} aria-label={`Delivery log of ${destination.name}`}>
            Delivery log
          </Button>
          <Button variant="secondary" onClick={() => setMode('confirm-delete')} aria-label={`Delete ${destination.name}`}>
            Delete
          </Button>
        </div>
      )}
      <p role="status" className="min-h-5 text-sm text-slate-700 dark:text-slate-300">
        {testResult ?? ''}
      </p>
      {mode === 'confirm-delete' && (
        <div role="group" aria-label={`Delete ${destination.name}?`} className="rounded-md border border-red-200 bg-red-50 p-4 dark:border-red-800 dark:bg-red-950">
          <p className="text-sm text-red-900 dark:text-red-200">
            Delete <strong>{destination.name}</strong>? Alerts stop going there at once, and its delivery log goes with it.
          </p>
          <div className="mt-3 flex gap-3">
            <DangerButton onClick={confirmDelete} disabled={remove.isPending}>
              {remove.isPending && <Spinner className="size-4" />}
              Yes, delete
            </DangerButton>
            <Button variant="secondary" onClick={() => setMode('view')} disabled={remove.isPending}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
      <div id={logId} hidden={!logOpen}>
        {logOpen && <DeliveryLog destination={destination} />}
      </div>
    </li>
  );
}

function DeliveryLog({ destination }: { destination: DestinationView }) {
  const log = useDeliveries(destination.id, true);
  if (log.isPending) return <LoadingState label="Loading the delivery log..." />;
  if (log.isError) return <FormMessage tone="error">{destinationsTabMessages.logFailed}</FormMessage>;
  if (log.data.deliveries.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{destinationsTabMessages.noDeliveries}</p>;
  return (
    <table className="w-full text-left text-sm text-slate-700 dark:text-slate-300">
      <caption className="mb-2 text-left font-semibold text-slate-900 dark:text-white">{`Deliveries to ${destination.name}, newest first (30 days)`}</caption>
      <thead>
        <tr>
          <th scope="col" className="py-1 pr-3">
            When
          </th>
          <th scope="col" className="py-1 pr-3">
            Event
          </th>
          <th scope="col" className="py-1 pr-3">
            Attempt
          </th>
          <th scope="col" className="py-1">
            Result
          </th>
        </tr>
      </thead>
      <tbody>
        {log.data.deliveries.map((delivery) => (
          <tr key={delivery.id} className="border-t border-slate-200 dark:border-slate-700">
            <td className="py-1 pr-3">{dayAndTime(delivery.at)}</td>
            <td className="py-1 pr-3">{eventNames(delivery.event)}</td>
            <td className="py-1 pr-3">{delivery.attempt}</td>
            <td className="py-1 break-all">{resultText(delivery)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function resultText(delivery: Pick<DeliveryView, 'outcome' | 'statusCode' | 'error'>): string {
  if (delivery.outcome === 'delivered') return `Delivered (HTTP ${delivery.statusCode ?? ''})`;
  if (delivery.outcome === 'refused') return `Refused: ${delivery.error ?? 'not a public address'}`;
  return `Failed: ${delivery.error ?? `HTTP ${delivery.statusCode ?? ''}`}`;
}

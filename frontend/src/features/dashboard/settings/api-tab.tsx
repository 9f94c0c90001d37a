import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { env } from '../../../config/env';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import {
  API_TOKEN_EXPIRY_CHOICES,
  API_TOKEN_NAME_MAX,
  apiTokenMessages,
  createApiTokenSchema,
  routePath,
  shownPrefix,
  type ApiTokenView,
  type CreatedApiToken,
} from '../../../lib/contracts';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from './api/api-tokens';

import { DangerButton, LoadingState, SettingsPanel } from './panel';
import { SecretShownOnce } from './secret-shown-once';

export const apiTabMessages = {
  loadFailed: 'Failed to load your API tokens. Please try again.',
  createFailed: 'Failed to create the token. Please try again.',
  revokeFailed: 'Failed to revoke the token. Please try again.',
  noTokens: 'No API tokens yet.',
  secretWarning: 'Copy this token now: it will not be shown again. Store it like a password.',
  copied: 'Copied to clipboard!',
  copyFailed: 'Copying failed: select the token and copy it by hand.',
  full: 'You have the maximum number of tokens. Revoke one to create another.',
} as const;

/** A 4xx carries the API's own words; anything else gets the fallback. */
const messageOf = (error: unknown, fallback: string): string => (error instanceof ApiError && error.status < 500 ? error.message : fallback);

const day = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });
const dayAndTime = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });

const NO_EXPIRY = 'never';
const expiryLabel = (days: number) => (days === 365 ? '1 year' : `${days} days`);

/** Settings → API (DECISIONS "Plan features": "API access" with Monitor Plus): personal API tokens and how to use them. */
export function ApiTab() {
  const list = useApiTokens();
  const [created, setCreated] = useState<CreatedApiToken | undefined>();

  if (list.isPending) return <LoadingState label="Loading your API tokens..." />;
  if (list.isError) return <FormMessage tone="error">{apiTabMessages.loadFailed}</FormMessage>;
  const { tokens, apiAccess, limit, requestsPerMinute } = list.data;

  return (
    <div className="space-y-6">
      {apiAccess ? (
        <CreateTokenForm full={tokens.length >= limit} limit={limit} onCreated={setCreated} />
      ) : (
        <SettingsPanel title="API access">
          <p role="note" className="text-sm text-slate-700 dark:text-slate-300">
            {apiTokenMessages.planRequired}
          </p>
          <Link to={paths.dashboard.section.getHref('subscription')} className={`${buttonClass()} mt-4`}>
            Upgrade your plan
          </Link>
        </SettingsPanel>
      )}
      {created && <SecretShownOnce name="Your new API token" label={`Your new token “${created.token.name}”`} secret={created.secret} messages={apiTabMessages} onDone={() => setCreated(undefined)} />}
      <SettingsPanel title="Your API tokens" description={`Up to ${limit} tokens. A revoked or expired token stops working at once.`}>
        {tokens.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{apiTabMessages.noTokens}</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {tokens.map((token) => (
              <TokenRow key={token.id} token={token} />
            ))}
          </ul>
        )}
      </SettingsPanel>
      <UsagePanel requestsPerMinute={requestsPerMinute} />
    </div>
  );
}

function CreateTokenForm({ full, limit, onCreated }: { full: boolean; limit: number; onCreated: (created: CreatedApiToken) => void }) {
  const create = useCreateApiToken();
  const expiryId = useId();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<string>('90');
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    const input = createApiTokenSchema.safeParse({ name, expiresInDays: expiry === NO_EXPIRY ? null : Number(expiry) });
    if (!input.success) {
      setNameError(input.error.issues.find((issue) => issue.path[0] === 'name')?.message ?? apiTokenMessages.name);
      return;
    }
    setNameError(undefined);
    create.mutate(input.data, {
      onSuccess: (answer) => {
        setName('');
        onCreated(answer);
      },
      onError: (error) => setFailure(messageOf(error, apiTabMessages.createFailed)),
    });
  };

  return (
    <SettingsPanel title="Create an API token" description="A personal token lets your scripts read your audits and start scans of your verified domains.">
      <form onSubmit={submit} noValidate className="space-y-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <TextField
            label="Token name"
            className="flex-1"
            name="name"
            autoComplete="off"
            maxLength={API_TOKEN_NAME_MAX}
            placeholder="CI pipeline"
            value={name}
            error={nameError}
            onChange={(event) => setName(event.target.value)}
          />
          <div>
            <label htmlFor={expiryId} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
              Expires
            </label>
            <select
              id={expiryId}
              value={expiry}
              onChange={(event) => setExpiry(event.target.value)}
              className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:outline-2 focus:outline-blue-700 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100"
            >
              {API_TOKEN_EXPIRY_CHOICES.map((days) => (
                <option key={days} value={String(days)}>
                  {`In ${expiryLabel(days)}`}
                </option>
              ))}
              <option value={NO_EXPIRY}>Never</option>
            </select>
          </div>
          <Button type="submit" className="sm:mt-6" disabled={create.isPending || full}>
            {create.isPending && <Spinner className="size-4" />}
            Create Token
          </Button>
        </div>
        {full && <p className="text-sm text-slate-600 dark:text-slate-400">{`${apiTabMessages.full} (${limit} at most)`}</p>}
        {failure && <FormMessage tone="error">{failure}</FormMessage>}
      </form>
    </SettingsPanel>
  );
}


function TokenRow({ token }: { token: ApiTokenView }) {
  const revoke = useRevokeApiToken();
  const headingId = useId();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();

  const confirmRevoke = () => {
    setFailure(undefined);
    revoke.mutate(token.id, {
      onError: (error) => {
        setConfirming(false);
        setFailure(messageOf(error, apiTabMessages.revokeFailed));
      },
    });
  };

  return (
    <li aria-labelledby={headingId} className="space-y-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <h3 id={headingId} className="text-base font-semibold break-all text-slate-900 dark:text-white">
          {token.name}
        </h3>
        <code className="rounded bg-slate-100 px-2 py-0.5 font-mono text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-200">{shownPrefix(token)}</code>
        {!confirming && (
          <Button variant="secondary" className="ml-auto" onClick={() => setConfirming(true)} aria-label={`Revoke ${token.name}`}>
            Revoke
          </Button>
        )}
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm text-slate-600 sm:grid-cols-3 dark:text-slate-400">
        <div>
          <dt className="inline">Created </dt>
          <dd className="inline">{day(token.createdAt)}</dd>
        </div>
        <div>
          <dt className="inline">Last used </dt>
          <dd className="inline">{token.lastUsedAt ? dayAndTime(token.lastUsedAt) : 'never'}</dd>
        </div>
        <div>
          <dt className="inline">Expires </dt>
          <dd className="inline">{token.expiresAt ? day(token.expiresAt) : 'never'}</dd>
        </div>
        {token.createdBy && (
          <div>
            <dt className="inline">Made by </dt>
            <dd className="inline break-all">{token.createdBy.email}</dd>
          </div>
        )}
      </dl>
      {confirming && (
        <div role="group" aria-label={`Revoke ${token.name}?`} className="rounded-md border border-red-200 bg-red-50 p-4 dark:border-red-800 dark:bg-red-950">
          <p className="text-sm text-red-900 dark:text-red-200">
            Revoke <strong>{token.name}</strong>? Scripts using it stop working at once. This cannot be undone.
          </p>
          <div className="mt-3 flex gap-3">
            <DangerButton onClick={confirmRevoke} disabled={revoke.isPending}>
              {revoke.isPending && <Spinner className="size-4" />}
              Yes, revoke
            </DangerButton>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={revoke.isPending}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
    </li>
  );
}

/** The API's address: the configured API origin, or this site's own (CloudFront and `npm start` serve /api/* here). */
export const apiBaseUrl = (): string => (env.API_URL || window.location.origin).replace(/\/+$/, '');

/** Copy-paste examples built from the route manifest and this deployment's address. */
export function usageExamples(base: string): { label: string; command: string }[] {
  const auth = '-H "Authorization: Bearer $API_TOKEN"';
  return [
    { label: 'List your audits (newest first; ?limit=1–100 and &cursor= for more)', command: `curl ${auth} ${base}${routePath('api-list-audits')}` },
    { label: 'Read one audit', command: `curl ${auth} ${base}${routePath('api-get-audit', { auditId: 'AUDIT_ID' })}` },
    {
      label: 'Scan one of your verified domains (counts against your monthly scans)',
      command: `curl -X POST ${auth} -H "Content-Type: application/json" -d '{"domain":"example.com"}' ${base}${routePath('api-start-scan')}`,
    },
  ];
}

function UsagePanel({ requestsPerMinute }: { requestsPerMinute: number }) {
  return (
    <SettingsPanel
      title="Using the API"
      description={`Send the token in the Authorization header. Each token may make ${requestsPerMinute} requests a minute; past that the API answers 429 with Retry-After. A wrong, revoked or expired token gets 401, and 403 when your plan no longer includes API access.`}
    >
      <ul className="space-y-4">
        {usageExamples(apiBaseUrl()).map((example) => (
          <li key={example.command}>
            <p className="text-sm text-slate-700 dark:text-slate-300">{example.label}</p>
            {/* Wrapped, not scrolled sideways: a scrolling box would need to take the keyboard focus to be read (WCAG 2.1.1). */}
            <pre className="mt-1 rounded bg-slate-900 px-3 py-2 font-mono text-xs whitespace-pre-wrap wrap-anywhere text-slate-100 dark:bg-slate-950">
              <code>{example.command}</code>
            </pre>
          </li>
        ))}
      </ul>
    </SettingsPanel>
  );
}

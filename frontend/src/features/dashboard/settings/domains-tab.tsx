import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { DOMAIN_PROOF_RECHECK_DAYS as PROOF_RECHECK_DAYS, type AuditHistoryEntry } from '../../../lib/contracts';
import { useOrgRole } from '../../account/api/account';
import { useMyAudits } from '../../account/api/audits';
import { useAddDomain, useDeleteDomain, useDomains, useVerifyDomain, type DomainView } from '../../account/api/domains';
import { CopyableValue } from './copyable-value';
import { domainInputProblem } from './lib/domain-input';
import { DangerButton, LoadingState, SettingsPanel } from './panel';
import { useVerifyPurpose, VerifyPurposePanel } from './verify-purpose';

type Message = { tone: 'error' | 'success'; text: string };

/** A 4xx carries the API's own words; anything else gets the fallback. */
/** An example of what the field takes: a business's domain (the site's own host, 127.0.0.1 locally, is one it refuses). */
export const DOMAIN_PLACEHOLDER = 'yourbusiness.com.au';

/** The file is looked for over https://, then http:// (issue 29 item 10). */
export const FILE_SCHEMES_NOTE = 'We look for the file over https:// first, then http:// if your site has no HTTPS.';

const messageOf = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.status < 500 ? error.message : fallback;

const dateAdded = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

const siteKey = (host: string): string => host.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');

/** The score of the newest completed audit of `domain`, or undefined when it has none. */
export function latestScore(audits: readonly AuditHistoryEntry[], domain: string): number | undefined {
  let latest: AuditHistoryEntry | undefined;
  for (const audit of audits) {
    if (audit.status !== 'completed' || audit.riskScore === null || siteKey(audit.domain) !== domain) continue;
    if (!latest || audit.scanDate > latest.scanDate) latest = audit;
  }
  return latest?.riskScore ?? undefined;
}

/** DECISIONS "risk_level" colours: ≥ 80 green, 60–79 yellow, < 60 red. */
const scoreTone = (score: number): string =>
  score >= 80
    ? 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200'
    : score >= 60
      ? 'bg-yellow-100 text-yellow-800 dark:bg-yellow-900 dark:text-yellow-200'
      : 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200';

/**
 * Settings → Domains: add, prove ownership (DNS TXT or a file), re-check, delete. Opened to verify a
 * domain for something (a report's unlock, a paid audit's checkout), it fills the domain in and
 * leads through to that.
 */
export function DomainsTab() {
  // Teams: a viewer sees the domains, and changes nothing (the server refuses it too).
  const readOnly = useOrgRole() === 'viewer';
  const domains = useDomains();
  const audits = useMyAudits();
  const purpose = useVerifyPurpose();
  const listed = purpose !== undefined && domains.data?.some((entry) => entry.domain === purpose.domain) === true;

  return (
    <div className="space-y-6">
      {purpose && <VerifyPurposePanel purpose={purpose} domains={domains.data} />}
      {/* Filled in with the domain to verify until it is listed (then afresh, empty). */}
      {!readOnly && <AddDomainForm key={listed ? 'listed' : 'unlisted'} initial={purpose && !listed ? purpose.domain : ''} />}
      <SettingsPanel
        title="Your domains"
        description="Scans run only on domains you have proven you own. Verified domains can be scanned from the dashboard."
      >
        {domains.isPending ? (
          <LoadingState label="Loading your domains..." />
        ) : domains.isError ? (
          <FormMessage tone="error">Failed to load your domains. Please try again.</FormMessage>
        ) : domains.data.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No domains yet. Add your website's domain above to start.</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-700">
            {domains.data.map((domain) => (
              <DomainRow key={domain.id} domain={domain} score={audits.data ? latestScore(audits.data, domain.domain) : undefined} readOnly={readOnly} />
            ))}
          </ul>
        )}
      </SettingsPanel>
    </div>
  );
}

function AddDomainForm({ initial }: { initial: string }) {
  const add = useAddDomain();
  const [input, setInput] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [added, setAdded] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(undefined);
    // SPEC §5: an empty input does nothing.
    if (input.trim() === '') return;
    const problem = domainInputProblem(input);
    if (problem) {
      setError(problem);
      return;
    }
    setError(undefined);
    add.mutate(input.trim(), {
      onSuccess: (domain) => {
        setInput('');
        setAdded(domain.domain);
      },
      onError: (failure) => setError(messageOf(failure, 'Failed to add the domain. Please try again.')),
    });
  };

  return (
    <SettingsPanel title="Add a domain" description="Enter your website's domain; you will then prove that you own it.">
      <form onSubmit={submit} noValidate className="space-y-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <TextField
            label="Domain"
            className="flex-1"
            name="domain"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={DOMAIN_PLACEHOLDER}
            value={input}
            error={error}
            onChange={(event) => setInput(event.target.value)}
          />
          <Button type="submit" className="sm:mt-6" disabled={add.isPending || input.trim() === ''}>
            {add.isPending && <Spinner className="size-4" />}
            Add Domain
          </Button>
        </div>
        {added && <FormMessage tone="success">{`${added} was added. Verify that you own it below.`}</FormMessage>}
      </form>
    </SettingsPanel>
  );
}

function DomainRow({ domain, score, readOnly = false }: { domain: DomainView; score: number | undefined; readOnly?: boolean }) {
  const verify = useVerifyDomain();
  const remove = useDeleteDomain();
  const [message, setMessage] = useState<Message | undefined>();
  const [confirming, setConfirming] = useState(false);
  const headingId = useId();

  const check = () => {
    setMessage(undefined);
    verify.mutate(domain.domain, {
      onSuccess: () => setMessage({ tone: 'success', text: `${domain.domain} is verified.` }),
      // 422 verification_not_found explains both ways and what it looked for.
      onError: (error) => setMessage({ tone: 'error', text: messageOf(error, 'Failed to check the verification. Please try again.') }),
    });
  };

  const confirmDelete = () => {
    setMessage(undefined);
    remove.mutate(domain.domain, {
      onError: (error) => {
        setConfirming(false);
        setMessage({ tone: 'error', text: messageOf(error, 'Failed to delete the domain. Please try again.') });
      },
    });
  };

  return (
    <li aria-labelledby={headingId} className="space-y-4 py-5 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id={headingId} className="font-mono text-base font-semibold break-all text-slate-900 dark:text-white">
          {domain.domain}
        </h3>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            domain.verified
              ? 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200'
              : domain.status === 'lapsed'
                ? 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200'
                : 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200'
          }`}
        >
          {domain.verified ? 'Verified' : domain.status === 'lapsed' ? 'Lapsed' : 'Pending'}
        </span>
        <span
          data-testid="score-chip"
          title={score === undefined ? 'No completed scan yet' : 'Score of the latest completed scan'}
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            score === undefined ? 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300' : scoreTone(score)
          }`}
        >
          {score === undefined ? '—' : score}
        </span>
        <span className="text-sm text-slate-600 dark:text-slate-400">Added {dateAdded(domain.addedAt)}</span>
        <div className="ml-auto">
          {!confirming && !readOnly && (
            <button
              type="button"
              onClick={() => setConfirming(true)}
              aria-label={`Delete ${domain.domain}`}
              className="rounded-md p-2 text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-blue-700 dark:hover:bg-red-950 dark:hover:text-red-400"
            >
              <TrashIcon />
            </button>
          )}
        </div>
      </div>

      {confirming && (
        <div role="group" aria-label={`Delete ${domain.domain}?`} className="rounded-md border border-red-200 bg-red-50 p-4 dark:border-red-800 dark:bg-red-950">
          <p className="text-sm text-red-900 dark:text-red-200">
            Delete <strong>{domain.domain}</strong>? You will need to verify it again to scan it.
          </p>
          <div className="mt-3 flex gap-3">
            <DangerButton onClick={confirmDelete} disabled={remove.isPending}>
              {remove.isPending && <Spinner className="size-4" />}
              Delete
            </DangerButton>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={remove.isPending}>
              Cancel
            </Button>
          </div>
        </div>
      )}

      {domain.verified && domain.proofCheckedAt && (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600 dark:text-slate-400">
          <p data-testid="proof-checked">
            {domain.proofRecheckDue
              ? `Proof last seen ${dateAdded(domain.proofCheckedAt)}: over ${PROOF_RECHECK_DAYS} days ago, so we look for it again before the next active scan.`
              : `Proof last seen ${dateAdded(domain.proofCheckedAt)}. We look for it again after ${PROOF_RECHECK_DAYS} days, before an active scan.`}
          </p>
          {domain.proofRecheckDue && !readOnly && (
            <Button variant="secondary" onClick={check} disabled={verify.isPending}>
              {verify.isPending && <Spinner className="size-4" />}
              Check again
            </Button>
          )}
        </div>
      )}

      {!domain.verified && !readOnly && (
        <div className="rounded-md border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-950">
          {domain.status === 'lapsed' && domain.lapsedAt && (
            <p className="mb-2 text-sm font-semibold text-red-800 dark:text-red-300">
              {`On ${dateAdded(domain.lapsedAt)} we could no longer find the TXT record or file below, so ${domain.domain} is no longer verified. Publish it again and check.`}
            </p>
          )}
          <p className="text-sm text-slate-700 dark:text-slate-300">Prove that you own this domain in either of two ways, then check.</p>
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <div>
              <h4 className="text-sm font-semibold text-slate-900 dark:text-white">Option 1: a DNS TXT record</h4>
              <dl className="mt-2 space-y-2">
                <CopyableValue label="Record name" value={domain.verification.dns.name} />
                <CopyableValue label="Record type" value={domain.verification.dns.type} />
                <CopyableValue label="Record value" value={domain.verification.dns.value} />
              </dl>
            </div>
            <div>
              <h4 className="text-sm font-semibold text-slate-900 dark:text-white">Option 2: a file on your site</h4>
              <dl className="mt-2 space-y-2">
                <CopyableValue label="File URL" value={domain.verification.file.url} />
                <CopyableValue label="File content" value={domain.verification.file.content} />
              </dl>
              <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">{FILE_SCHEMES_NOTE}</p>
            </div>
          </div>
          <Button className="mt-4" onClick={check} disabled={verify.isPending}>
            {verify.isPending && <Spinner className="size-4" />}
            Check verification
          </Button>
        </div>
      )}

      {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
    </li>
  );
}

function TrashIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-5">
      <path
        fillRule="evenodd"
        d="M8.75 1A2.75 2.75 0 0 0 6 3.75v.44c-.79.08-1.57.18-2.35.3a.75.75 0 1 0 .23 1.49l.15-.02.84 10.52A2.75 2.75 0 0 0 7.61 19h4.78a2.75 2.75 0 0 0 2.74-2.52l.84-10.52.15.02a.75.75 0 0 0 .23-1.49c-.78-.12-1.56-.22-2.35-.3v-.44A2.75 2.75 0 0 0 11.25 1h-2.5ZM10 4c.84 0 1.67.03 2.5.08v-.33c0-.69-.56-1.25-1.25-1.25h-2.5c-.69 0-1.25.56-1.25 1.25v.33C8.33 4.03 9.16 4 10 4ZM8.58 7.72a.75.75 0 0 0-1.5.06l.3 7.5a.75.75 0 1 0 1.5-.06l-.3-7.5Zm4.34.06a.75.75 0 1 0-1.5-.06l-.3 7.5a.75.75 0 1 0 1.5.06l.3-7.5Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { StatusPanel } from '../../../components/ui/status-panel';
import { TextField } from '../../../components/ui/text-field';
import { content } from '../../../config/content';
import { ApiError } from '../../../lib/api-client';
import type { OptOutConfirmView, OptOutRequestView, ScannerInfoView } from '../../../lib/contracts';
import { useConfirmOptOut, useRemoveOptOut, useRequestOptOut, useScannerInfo } from '../api/scanner';

const UNEXPECTED = 'Sorry, there was an error processing your request. Please try again.';
const messageOf = (error: unknown): string => (error instanceof ApiError ? error.message : UNEXPECTED);
const longDate = (iso: string): string => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-10">
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900 dark:text-white">
        {title}
      </h2>
      <div className="mt-3 space-y-3 leading-relaxed text-slate-700 dark:text-slate-300 [&_li]:mt-1 [&_ul]:list-disc [&_ul]:pl-6">{children}</div>
    </section>
  );
}

const Code = ({ children }: { children: ReactNode }) => (
  <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-sm break-all text-slate-900 dark:bg-slate-800 dark:text-slate-100">{children}</code>
);

/**
 * DECISIONS "Scanner identity": the page a site owner reaches from the scanner's user agent — who it
 * is, what it does in each mode, how gently, from where, where to complain, and how to opt out.
 * Every figure comes from `GET /api/scanner`, which reads them from the engine and the deployment.
 */
export function ScannerPage() {
  const info = useScannerInfo();
  if (info.isPending) {
    return (
      <StatusPanel title="Loading…" role="status">
        <Spinner className="mx-auto mt-4 block size-6" />
      </StatusPanel>
    );
  }
  if (info.isError) {
    return (
      <StatusPanel title="Could not load this page" tone="error" role="alert">
        <p className="mt-3 text-slate-700 dark:text-slate-300">{messageOf(info.error)}</p>
      </StatusPanel>
    );
  }
  return <ScannerFacts info={info.data} />;
}

function ScannerFacts({ info }: { info: ScannerInfoView }) {
  const product = content.productName;
  const { politeness } = info;
  return (
    <article className="mx-auto max-w-3xl">
      <header className="border-b border-slate-200 pb-6 dark:border-slate-800">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">The {product} scanner</h1>
        <p className="mt-4 text-slate-700 dark:text-slate-300">
          If you found this address in your logs, a visitor asked {product} for a security report on your site, or the site&apos;s owner monitors it with us. This page says what the scanner does, from where, and how to stop it.
        </p>
      </header>

      <Section id="identity" title="How to recognise it">
        <p>Every request the scanner makes to a website carries this user agent:</p>
        <p data-testid="scanner-user-agent">
          <Code>{info.userAgent}</Code>
        </p>
        <p>It scans from:</p>
        {info.egressAddresses ? (
          <ul data-testid="scanner-addresses">
            {info.egressAddresses.map((address) => (
              <li key={address}>
                <Code>{address}</Code>
              </li>
            ))}
          </ul>
        ) : (
          <p data-testid="scanner-addresses">Addresses that are not fixed: the scanner runs on Amazon Web Services addresses that change. Recognise it by its user agent.</p>
        )}
      </Section>

      <Section id="modes" title="What it does">
        <p>What a scan does depends on what the person who asked for it has proved.</p>
        <h3 className="font-semibold text-slate-900 dark:text-white">Passive scan (anyone who proved an email address)</h3>
        <p>Only what any visitor&apos;s browser or a sending mail server does:</p>
        <ul>
          <li>DNS lookups of the domain (no zone transfer)</li>
          <li>the site&apos;s pages, redirects and the assets they load, <Code>/robots.txt</Code> and <Code>/.well-known/security.txt</Code></li>
          <li>TLS handshakes on the site&apos;s HTTPS port, and the mail servers&apos; STARTTLS conversation</li>
          <li>email authentication records (SPF, DMARC, DKIM)</li>
        </ul>
        <h3 className="font-semibold text-slate-900 dark:text-white">Full scan (only after proof of control of the domain)</h3>
        <p>
          Only when the requester proved they control the domain — an email address at it, confirmed with a code, or the domain verified by DNS TXT record or file — the scanner also runs:
        </p>
        <ul>
          <li>a sweep of the most common TCP ports, reading the banners of those that answer</li>
          <li>requests for files that should not be public (backups, configuration, version control)</li>
          <li>WordPress checks, including its user list</li>
          <li>a DNS zone transfer attempt</li>
          <li>guessing and probing subdomains</li>
        </ul>
      </Section>

      <Section id="politeness" title="How gently it scans">
        <ul data-testid="scanner-politeness">
          <li>At most {politeness.maxInFlightPerSite} requests in flight at once to one site, however many checks run.</li>
          <li>At most {politeness.maxRequestsPerSecondPerSite} requests a second to one site.</li>
          <li>At most {politeness.activeScansPerSitePerHour} full scans of one site an hour, whoever asks; past that, scans are passive.</li>
          <li>Every scan has a deadline and stops at it, finished or not.</li>
        </ul>
      </Section>

      <Section id="abuse" title="Report a problem">
        <p>
          If the scanner caused you trouble, write to{' '}
          <a data-testid="scanner-abuse-email" href={`mailto:${info.abuseEmail}`} className="text-blue-700 underline underline-offset-4 dark:text-blue-400">
            {info.abuseEmail}
          </a>
          , with the time and your site&apos;s address.
        </p>
      </Section>

      <Section id="opt-out" title="Opt out of scanning">
        <p>
          Prove that you control your domain and {product} will not scan it, or any of its subdomains, again — for anyone — until you withdraw it. No account is needed. Anyone who asks {product} to scan it is told that its owner asked not to be scanned, and when.
        </p>
        <p>
          The proof is the same as for verifying a domain: a DNS TXT record at <Code>{info.optOut.dnsRecordName}</Code>, or a file at <Code>https://{'{domain}'}{info.optOut.filePath}</Code>. A token is valid for {info.optOut.requestValidDays} days.
        </p>
        <OptOutFlow />
        <WithdrawOptOut />
      </Section>
    </article>
  );
}

function Instructions({ request }: { request: OptOutRequestView }) {
  return (
    <div data-testid="opt-out-instructions" className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-700 dark:bg-slate-900">
      <p>
        Publish one of these to opt out <strong>{request.domain}</strong> and all its subdomains, then press <em>Check and opt out</em>.
      </p>
      <h3 className="mt-4 font-semibold text-slate-900 dark:text-white">Either a DNS TXT record</h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">Name</dt>
        <dd data-testid="opt-out-record-name">
          <Code>{request.dns.name}</Code>
        </dd>
        <dt className="font-semibold">Value</dt>
        <dd data-testid="opt-out-record-value">
          <Code>{request.dns.value}</Code>
        </dd>
      </dl>
      <h3 className="mt-4 font-semibold text-slate-900 dark:text-white">Or a file</h3>
      <p className="text-sm">
        At <Code>{request.file.url}</Code> containing <Code>{request.file.content}</Code>
      </p>
    </div>
  );
}

function OptOutFlow() {
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string>();
  const [request, setRequest] = useState<OptOutRequestView>();
  const [done, setDone] = useState<OptOutConfirmView>();
  const ask = useRequestOptOut();
  const confirm = useConfirmOptOut();

  const onRequest = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setDone(undefined);
    ask.mutate(domain.trim(), { onSuccess: setRequest, onError: (e) => setError(messageOf(e)) });
  };
  const onConfirm = () => {
    if (!request) return;
    setError(undefined);
    confirm.mutate({ domain: request.domain, token: request.token }, { onSuccess: setDone, onError: (e) => setError(messageOf(e)) });
  };

  return (
    <div className="mt-4 space-y-4">
      <form onSubmit={onRequest} className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-label="Opt out a domain">
        <TextField label="Your domain" name="opt-out-domain" placeholder="example.com" value={domain} onChange={(event) => setDomain(event.target.value)} className="flex-1" />
        <Button type="submit" disabled={ask.isPending}>
          {ask.isPending ? 'Working…' : 'Get opt-out instructions'}
        </Button>
      </form>
      {request && !done && (
        <>
          <Instructions request={request} />
          <Button onClick={onConfirm} disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking…' : 'Check and opt out'}
          </Button>
        </>
      )}
      {done && (
        <p role="status" data-testid="opt-out-done" className="rounded-lg border border-green-300 bg-green-50 p-4 text-green-900">
          {done.domain} is opted out since {longDate(done.optedOutAt)}: {content.productName} will not scan it or its subdomains for anyone.
        </p>
      )}
      {error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {error}
        </p>
      )}
    </div>
  );
}

function WithdrawOptOut() {
  const [domain, setDomain] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string }>();
  const remove = useRemoveOptOut();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const name = domain.trim();
    remove.mutate(name, {
      onSuccess: () => setResult({ ok: true, text: `The opt-out of ${name} is withdrawn.` }),
      onError: (e) => setResult({ ok: false, text: messageOf(e) }),
    });
  };
  return (
    <div className="mt-8">
      <h3 className="font-semibold text-slate-900 dark:text-white">Withdraw an opt-out</h3>
      <p className="mt-1 text-sm">Keep the record or file published while you withdraw: it shows that you still control the domain.</p>
      <form onSubmit={onSubmit} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end" aria-label="Withdraw an opt-out">
        <TextField label="Opted-out domain" name="withdraw-domain" placeholder="example.com" value={domain} onChange={(event) => setDomain(event.target.value)} className="flex-1" />
        <Button type="submit" variant="secondary" disabled={remove.isPending}>
          Withdraw opt-out
        </Button>
      </form>
      {result && (
        <p role={result.ok ? 'status' : 'alert'} className="mt-3 text-sm">
          {result.text}
        </p>
      )}
    </div>
  );
}

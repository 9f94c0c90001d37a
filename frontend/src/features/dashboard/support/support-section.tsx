import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { content } from '../../../config/content';
import { ApiError } from '../../../lib/api-client';
import { plans } from '../../../lib/catalogue';
import {
  SUPPORT_CATEGORY_LABELS,
  SUPPORT_LIMITS,
  supportCategories,
  supportMessages,
  supportRequestSchema,
  type SupportCategory,
  type SupportEntitlementView,
  type SupportRequestCreated,
  type SupportRequestView,
} from '../../../lib/contracts';
import { useOrgRole } from '../../account/api/account';
import { useCreateSupportRequest, useSupportRequests } from './api/support-requests';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const inputClass = (invalid: boolean) =>
  `mt-1 block w-full rounded-md border bg-white px-3 py-2 text-slate-900 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 dark:bg-slate-950 dark:text-slate-100 ${
    invalid ? 'border-red-600 dark:border-red-500' : 'border-slate-300 dark:border-slate-600'
  }`;
/** 'Monitor Plus and the 20-Scan Pack': the catalogue's plans that grant priority support. */
const priorityPlans = plans
  .filter((plan) => plan.grants.support === 'priority')
  .map((plan, i) => (i > 0 && plan.kind === 'scan-pack' ? `the ${plan.name}` : plan.name))
  .join(' and ');

const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

export const NO_REQUESTS = 'No support requests yet.';

interface Values {
  category: SupportCategory | '';
  subject: string;
  message: string;
  auditId: string;
}
type FieldName = keyof Values;
const EMPTY: Values = { category: '', subject: '', message: '', auditId: '' };

function PriorityBadge() {
  return (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-600/30 ring-inset dark:bg-amber-900 dark:text-amber-100">
      {supportMessages.prioritySupport}
    </span>
  );
}

function Entitlement({ support }: { support: SupportEntitlementView }) {
  return (
    <section className={card} aria-label="Your support">
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">Your plan: {support.plan}</span>
        {support.priority && <PriorityBadge />}
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {support.priority
          ? `Your plan includes priority support: expect our first response within ${support.firstResponse}.`
          : `Expect our first response within ${support.firstResponse}. ${priorityPlans} include priority support.`}
      </p>
    </section>
  );
}

function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Partial<Record<FieldName, string>> {
  const fields: Partial<Record<FieldName, string>> = {};
  for (const issue of issues) fields[String(issue.path[0] ?? '') as FieldName] ??= issue.message;
  return fields;
}

function Sent({ created, onAnother }: { created: SupportRequestCreated; onAnother: () => void }) {
  return (
    <div role="status" className="space-y-3">
      <p className="text-lg font-semibold text-green-800 dark:text-green-300">Your request has been sent.</p>
      <p>
        Your reference: <strong data-testid="support-reference">{created.request.reference}</strong>
      </p>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        We emailed you a copy. You can expect our first response within {created.firstResponse}.
      </p>
      <Button variant="secondary" onClick={onAnother}>
        Send another request
      </Button>
    </div>
  );
}

function SupportForm() {
  const create = useCreateSupportRequest();
  const ids = { category: useId(), message: useId(), messageError: useId(), categoryError: useId() };
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [created, setCreated] = useState<SupportRequestCreated>();

  const set = (name: FieldName) => (event: { target: { value: string } }) => setValues((previous) => ({ ...previous, [name]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    // The API's own contract: what it would refuse is refused here, and nothing is sent.
    const parsed = supportRequestSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (answer) => {
        setCreated(answer);
        setValues(EMPTY);
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.body.fields : undefined;
        if (typeof fields === 'object' && fields !== null) setErrors(fields as Partial<Record<FieldName, string>>);
        setFailure(error instanceof ApiError && error.status < 500 ? error.message : supportMessages.failed);
      },
    });
  };

  if (created) return <Sent created={created} onAnother={() => setCreated(undefined)} />;

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div>
        <label htmlFor={ids.category} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
          Category
        </label>
        <select
          id={ids.category}
          value={values.category}
          onChange={set('category')}
          aria-invalid={errors.category ? true : undefined}
          aria-describedby={errors.category ? ids.categoryError : undefined}
          className={inputClass(Boolean(errors.category))}
        >
          <option value="">Choose a category</option>
          {supportCategories.map((category) => (
            <option key={category} value={category}>
              {SUPPORT_CATEGORY_LABELS[category]}
            </option>
          ))}
        </select>
        {errors.category && (
          <p id={ids.categoryError} className="mt-1 text-sm text-red-700 dark:text-red-400">
            {errors.category}
          </p>
        )}
      </div>
      <TextField label="Subject" value={values.subject} onChange={set('subject')} error={errors.subject} maxLength={SUPPORT_LIMITS.subject.max} />
      <div>
        <label htmlFor={ids.message} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
          Message
        </label>
        <textarea
          id={ids.message}
          rows={7}
          value={values.message}
          onChange={set('message')}
          maxLength={SUPPORT_LIMITS.message.max}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? ids.messageError : undefined}
          className={inputClass(Boolean(errors.message))}
        />
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {values.message.length.toLocaleString('en-AU')} / {SUPPORT_LIMITS.message.max.toLocaleString('en-AU')} characters
        </p>
        {errors.message && (
          <p id={ids.messageError} className="mt-1 text-sm text-red-700 dark:text-red-400">
            {errors.message}
          </p>
        )}
      </div>
      <TextField
        label="Audit ID (optional)"
        value={values.auditId}
        onChange={set('auditId')}
        error={errors.auditId}
        hint="If your question is about a report, paste its ID from the report's address (/results/…)."
      />
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
      <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
        {create.isPending && <Spinner className="size-4" />}
        Send request
      </Button>
    </form>
  );
}

function RequestList({ requests }: { requests: SupportRequestView[] }) {
  if (requests.length === 0) return <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{NO_REQUESTS}</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
      {requests.map((request) => (
        <li key={request.id} aria-label={request.reference} className="py-3">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">{request.subject}</span>
            {request.priority && <PriorityBadge />}
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {request.reference} · {SUPPORT_CATEGORY_LABELS[request.category]} · {shortDate(request.createdAt)} · <span className="capitalize">{request.status}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

/** `/dashboard/support`: the support form (marked with the plan by the API), its promise, and the user's past requests. */
export function SupportSection() {
  const requests = useSupportRequests();
  const readOnly = useOrgRole() === 'viewer';
  return (
    <div className="space-y-6">
      <title>{`Support — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Support</h1>
      {requests.data && <Entitlement support={requests.data.support} />}
      {!readOnly && (
        <section className={card} aria-labelledby="support-form">
          <h2 id="support-form" className="text-lg font-semibold">
            Ask for help
          </h2>
          <div className="mt-4">
            <SupportForm />
          </div>
        </section>
      )}
      <section className={card} aria-labelledby="support-requests">
        <h2 id="support-requests" className="text-lg font-semibold">
          Your requests
        </h2>
        {requests.isPending && <p role="status" className="mt-2 text-sm">Loading your requests…</p>}
        {requests.isError && <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">Your requests could not be loaded: {requests.error.message}</p>}
        {requests.data && <RequestList requests={requests.data.requests} />}
      </section>
    </div>
  );
}

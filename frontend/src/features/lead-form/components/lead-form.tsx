import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import type { Audit } from '../../../lib/contracts';
import { addressProofMessages } from '../../../lib/address-proof';
import { formatPlanPrice, lowestPrice } from '../../../lib/catalogue';
import { useCreateLead, type CreateLeadPayload, type CreateLeadResponse } from '../api/create-lead';
import { rememberAddressProof, rememberSubmission } from '../lib/session-keys';
import { ProgressPanel } from './progress-panel';
import type { VerificationRequest } from './verification-modal';

const loadContract = () => import('../../../lib/lead-contract');
/** Only some leads need a code, and the modal reads the lead contract: both load once the visitor starts on the form. */
const loadVerificationModal = () => import('./verification-modal');
const VerificationModal = lazy(() => loadVerificationModal().then((module) => ({ default: module.VerificationModal })));

const textFields = [
  { name: 'firstName', label: 'First Name', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last Name', type: 'text', autoComplete: 'family-name' },
  { name: 'businessName', label: 'Business Name', type: 'text', autoComplete: 'organization' },
  { name: 'webUrl', label: 'Website URL', type: 'url', autoComplete: 'url', placeholder: 'https://yourbusiness.com' },
  { name: 'email', label: 'Business Email', type: 'email', autoComplete: 'email', placeholder: 'you@yourbusiness.com' },
  { name: 'mobileNumber', label: 'Mobile Number', type: 'tel', autoComplete: 'tel', placeholder: '0412 345 678' },
] as const;

type TextField = (typeof textFields)[number]['name'];
type Values = Record<TextField, string>;

const emptyValues: Values = { firstName: '', lastName: '', businessName: '', webUrl: '', email: '', mobileNumber: '' };

/** SPEC §8 / DECISIONS "Failures are shown". */
export const ERROR_PANEL_MESSAGE = 'Sorry, there was an error processing your request. Please try again.';
export const UNEXPECTED_ERROR = 'An unexpected error occurred';
/** SPEC §8 "Verification": what the form says when the modal could not send the code. */
export const VERIFICATION_EMAIL_FAILED = 'Failed to send verification email. Please try again.';

type Stage =
  | { kind: 'form' }
  | { kind: 'progress'; lead: CreateLeadResponse; host: string; email: string }
  | { kind: 'success'; lead: CreateLeadResponse }
  | { kind: 'error'; detail: string };

const hostOf = (webUrl: string): string => {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(webUrl) ? webUrl : `https://${webUrl}`).hostname;
  } catch {
    return webUrl;
  }
};

/** A consent's own message (SPEC §5 business-applicant schema), from the contract or the server. */
function ConsentError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="-mt-1 pl-7 text-sm text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

/** SPEC §2: the form's marketing blocks, prices from the plan catalogue. */
function OfferBlocks() {
  const offers = [
    { title: 'Free security report', text: 'A real scan and a clear report. No fee and no card; kept in an account for you.' },
    {
      title: `Premium audit from ${formatPlanPrice(lowestPrice('audit'))}`,
      text: 'A deep dive with a remediation plan, offered only if issues are found.',
    },
    {
      title: `Monthly monitoring from ${formatPlanPrice(lowestPrice('subscription'))}`,
      text: 'Scheduled rescans and alerts when something changes.',
    },
  ];
  return (
    <ul aria-label="What you get" className="mt-6 grid gap-3 border-t border-slate-200 pt-5 text-sm sm:grid-cols-3 dark:border-slate-700">
      {offers.map((offer) => (
        <li key={offer.title}>
          <p className="font-semibold text-slate-900 dark:text-slate-100">{offer.title}</p>
          <p className="mt-0.5 text-slate-600 dark:text-slate-400">{offer.text}</p>
        </li>
      ))}
    </ul>
  );
}

/**
 * 'Get Your Free Security Report' (SPEC §2 "Lead form"): six fields and two consents; a same-domain
 * email scans at once, passive until the code mailed to it is typed on the report (DECISIONS "Scan
 * modes" [attacker]), any other first proves itself with an emailed code; then the scan's real
 * progress, and the success or error panel.
 */
export function LeadForm() {
  const formId = useId();
  const [values, setValues] = useState<Values>(emptyValues);
  const [agreedToTerms, setAgreedToTerms] = useState(false);
  const [agreedToDataCollection, setAgreedToDataCollection] = useState(false);
  const [honeypot, setHoneypot] = useState('');
  // When the form was shown: the server takes a submission within seconds of it for a bot's.
  const [shownAt] = useState(() => Date.now());
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<string, string>>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [validating, setValidating] = useState(false);
  const [stage, setStage] = useState<Stage>({ kind: 'form' });
  const [verification, setVerification] = useState<VerificationRequest | undefined>();
  const createLead = useCreateLead();
  const { mutate: postLead } = createLead;
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const fieldRefs = useRef<Partial<Record<TextField, HTMLInputElement | null>>>({});

  const bothAgreed = agreedToTerms && agreedToDataCollection;
  const busy = validating || createLead.isPending;

  useEffect(() => {
    if (stage.kind !== 'form') panelHeading.current?.focus();
  }, [stage.kind]);

  const payload = useCallback(
    (emailVerified: boolean): CreateLeadPayload => ({
      ...values,
      agreedToTerms,
      agreedToDataCollection,
      createAccount: true,
      sendLoginCredentials: true,
      emailVerified,
      website: honeypot,
      submittedAt: shownAt,
    }),
    [values, agreedToTerms, agreedToDataCollection, honeypot, shownAt],
  );

  const submitLead = useCallback(
    (emailVerified: boolean) => {
      setFormError(undefined);
      const sent = payload(emailVerified);
      postLead(sent, {
        onSuccess: (lead) => {
          rememberSubmission(sent.webUrl, lead.auditId);
          if (lead.confirmAddress) rememberAddressProof(lead.auditId, lead.confirmAddress.email);
          setValues(emptyValues);
          setAgreedToTerms(false);
          setAgreedToDataCollection(false);
          setFieldErrors({});
          // A bot's answer names no real audit: there is nothing to follow.
          setStage(
            lead.auditId.startsWith('bot_safe_')
              ? { kind: 'success', lead }
              : { kind: 'progress', lead, host: hostOf(sent.webUrl), email: sent.email },
          );
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 403 && error.code === 'verification_required' && !emailVerified) {
            setVerification({
              email: sent.email.trim(),
              firstName: sent.firstName.trim(),
              webUrl: sent.webUrl.trim(),
              businessName: sent.businessName.trim(),
            });
            return;
          }
          if (error instanceof ApiError && error.code === 'validation_failed') {
            const fields = error.body.fields;
            setFieldErrors(typeof fields === 'object' && fields !== null ? (fields as Record<string, string>) : {});
            setFormError(error.message);
            return;
          }
          setStage({ kind: 'error', detail: error instanceof ApiError ? error.message : UNEXPECTED_ERROR });
        },
      });
    },
    [postLead, payload],
  );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setValidating(true);
    try {
      const contract = await loadContract();
      const input = { ...values, agreedToTerms, agreedToDataCollection };
      const result = contract.leadInputSchema.safeParse(input);
      if (!result.success) {
        const fields = contract.fieldMessages(result.error);
        setFieldErrors(fields);
        setFormError(contract.summarizeLeadErrors(fields, input));
        const first = textFields.find((field) => fields[field.name]);
        if (first) fieldRefs.current[first.name]?.focus();
        return;
      }
    } catch {
      // The validation code could not load (offline?): the server validates the same contract.
    } finally {
      setValidating(false);
    }
    setFieldErrors({});
    submitLead(false);
  };

  const onVerified = useCallback(() => {
    setVerification(undefined);
    submitLead(true);
  }, [submitLead]);
  const onCloseModal = useCallback(() => setVerification(undefined), []);
  const onSendResult = useCallback((sent: boolean) => setFormError(sent ? undefined : VERIFICATION_EMAIL_FAILED), []);
  const navigate = useNavigate();
  // Issue 29 item 9: a finished scan opens its report (a failed one shows its error there). A passive
  // same-domain lead stays here to read where its code went (addressProofMessages.leadCompleted).
  const onFinished = useCallback(
    (audit: Audit) => {
      if (stage.kind !== 'progress') return;
      if (audit.status === 'completed' && stage.lead.confirmAddress) setStage({ kind: 'success', lead: stage.lead });
      else navigate(paths.results.getHref(stage.lead.auditId));
    },
    [stage, navigate],
  );
  const onFailed = useCallback((detail: string) => setStage({ kind: 'error', detail }), []);

  const clearFieldError = (name: string) => {
    if (fieldErrors[name]) setFieldErrors((current) => ({ ...current, [name]: undefined }));
  };
  const setValue = (name: TextField, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    clearFieldError(name);
  };

  return (
    <section
      aria-labelledby={`${formId}-title`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id={`${formId}-title`} className="text-2xl font-bold tracking-tight text-slate-900 dark:text-slate-100">
        Get Your Free Security Report
      </h2>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        A real scan of your website: vulnerabilities, open ports, SSL/TLS, email security and more. No card needed.
      </p>

      {stage.kind === 'form' && (
        <form
          onSubmit={(event) => void onSubmit(event)}
          onFocus={() => {
            void loadContract();
            void loadVerificationModal();
          }}
          noValidate
          aria-describedby={formError ? `${formId}-error` : undefined}
          className="mt-6 space-y-5"
        >
          {formError && (
            <p id={`${formId}-error`} role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-semibold text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-300">
              {formError}
            </p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {textFields.map((field) => {
              const id = `${formId}-${field.name}`;
              const error = fieldErrors[field.name];
              return (
                <div key={field.name}>
                  <label htmlFor={id} className="block text-sm font-semibold text-slate-800 dark:text-slate-200">
                    {field.label}
                  </label>
                  <input
                    ref={(element) => {
                      fieldRefs.current[field.name] = element;
                    }}
                    id={id}
                    name={field.name}
                    type={field.type}
                    autoComplete={field.autoComplete}
                    placeholder={'placeholder' in field ? field.placeholder : undefined}
                    value={values[field.name]}
                    onChange={(event) => setValue(field.name, event.target.value)}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                    required
                    className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-slate-900 placeholder:text-slate-400 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-500 ${error ? 'border-red-600 dark:border-red-500' : 'border-slate-300 dark:border-slate-600'}`}
                  />
                  {error && (
                    <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
                      {error}
                    </p>
                  )}
                </div>
              );
            })}
          </div>

          {/* Honeypot (HONEYPOT_FIELD in lead.contract.ts): hidden from people and assistive tech; bots fill it. */}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label htmlFor={`${formId}-website`}>Website</label>
            <input
              id={`${formId}-website`}
              name="website"
              type="text"
              tabIndex={-1}
              autoComplete="off"
              value={honeypot}
              onChange={(event) => setHoneypot(event.target.value)}
            />
          </div>

          <fieldset className="space-y-3">
            <legend className="sr-only">Consent</legend>
            <label className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-300">
              <input
                type="checkbox"
                name="agreedToTerms"
                checked={agreedToTerms}
                onChange={(event) => {
                  setAgreedToTerms(event.target.checked);
                  clearFieldError('agreedToTerms');
                }}
                aria-invalid={fieldErrors.agreedToTerms ? true : undefined}
                aria-describedby={fieldErrors.agreedToTerms ? `${formId}-agreedToTerms-error` : undefined}
                className="mt-0.5 size-4 shrink-0 accent-blue-700"
              />
              <span>
                I am the owner of this website, or I am authorised by its owner, and I authorise a security scan of this
                domain.
              </span>
            </label>
            <ConsentError id={`${formId}-agreedToTerms-error`} message={fieldErrors.agreedToTerms} />
            <label className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-300">
              <input
                type="checkbox"
                name="agreedToDataCollection"
                checked={agreedToDataCollection}
                onChange={(event) => {
                  setAgreedToDataCollection(event.target.checked);
                  clearFieldError('agreedToDataCollection');
                }}
                aria-invalid={fieldErrors.agreedToDataCollection ? true : undefined}
                aria-describedby={fieldErrors.agreedToDataCollection ? `${formId}-agreedToDataCollection-error` : undefined}
                className="mt-0.5 size-4 shrink-0 accent-blue-700"
              />
              <span>
                I agree to the{' '}
                <a href={paths.terms.getHref()} target="_blank" rel="noopener noreferrer" className="font-semibold text-blue-700 underline dark:text-blue-400">
                  Terms of Service
                </a>{' '}
                and{' '}
                <a href={paths.privacy.getHref()} target="_blank" rel="noopener noreferrer" className="font-semibold text-blue-700 underline dark:text-blue-400">
                  Privacy Policy
                </a>
                , and to my details being used to create my account and send my report.
              </span>
            </label>
            <ConsentError id={`${formId}-agreedToDataCollection-error`} message={fieldErrors.agreedToDataCollection} />
          </fieldset>

          <Button type="submit" className="w-full py-3 text-base" disabled={!bothAgreed || busy}>
            {busy && <Spinner className="size-4" />}
            Verify Domain & Start Security Scan
          </Button>
          {!bothAgreed && (
            <p className="text-center text-xs text-slate-500 dark:text-slate-400">Tick both boxes above to start the scan.</p>
          )}
          <p data-testid="account-notice" className="text-center text-xs text-slate-600 dark:text-slate-400">
            We keep your report in an account for you, under this email. We email you a link to choose a password; no password is sent by email.
          </p>
          {createLead.isPending && (
            <p role="status" className="text-center text-sm text-blue-800 dark:text-blue-300">
              Starting security audit...
            </p>
          )}
        </form>
      )}

      {stage.kind === 'progress' && (
        <div className="mt-6">
          <h3 ref={panelHeading} tabIndex={-1} className="sr-only">
            Security scan in progress
          </h3>
          <ProgressPanel
            auditId={stage.lead.auditId}
            host={stage.host}
            accountCreated={stage.lead.accountCreated}
            email={stage.email}
            onFinished={onFinished}
            onFailed={onFailed}
          />
        </div>
      )}

      {stage.kind === 'success' && (
        <div className="mt-6 space-y-4 rounded-xl border border-green-200 bg-green-50 p-5 text-center dark:border-green-800 dark:bg-green-950">
          <h3 ref={panelHeading} tabIndex={-1} className="text-lg font-bold text-green-900 focus:outline-none dark:text-green-100">
            {stage.lead.confirmAddress
              ? addressProofMessages.leadCompleted(stage.lead.confirmAddress.email)
              : stage.lead.accountCreated
              ? 'Account created and audit completed! Check your email for login credentials.'
              : 'Audit completed and assigned to your existing account!'}
          </h3>
          <p className="text-green-900 dark:text-green-100">Audit completed! Click below to view your security report.</p>
          <div className="flex flex-col justify-center gap-3 sm:flex-row">
            <Link to={paths.results.getHref(stage.lead.auditId)} className={buttonClass('primary')}>
              View Security Report
            </Link>
            <Button variant="secondary" onClick={() => setStage({ kind: 'form' })}>
              Scan another website
            </Button>
          </div>
        </div>
      )}

      {stage.kind === 'error' && (
        <div role="alert" className="mt-6 space-y-3 rounded-xl border border-red-200 bg-red-50 p-5 text-center dark:border-red-800 dark:bg-red-950">
          <h3 ref={panelHeading} tabIndex={-1} className="text-lg font-bold text-red-900 focus:outline-none dark:text-red-100">
            {ERROR_PANEL_MESSAGE}
          </h3>
          <p className="text-sm break-words text-red-900 dark:text-red-100">{stage.detail}</p>
          <Button onClick={() => setStage({ kind: 'form' })}>Try Again</Button>
        </div>
      )}

      <OfferBlocks />

      {verification && (
        <Suspense fallback={null}>
          <VerificationModal request={verification} onVerified={onVerified} onClose={onCloseModal} onSendResult={onSendResult} />
        </Suspense>
      )}
    </section>
  );
}

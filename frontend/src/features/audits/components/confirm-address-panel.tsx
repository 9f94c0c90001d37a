import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { addressProofMessages, type Audit, type AuditResultView, wrongCodeMessage } from '../../../lib/contracts';
import { rememberedAddressProof } from '../../lead-form/lib/session-keys';
import { useConfirmAddress } from '../api/confirm-address';

/** A wrong code says how many attempts are left and what to do (the API's remainingAttempts); other refusals as the API words them. */
function confirmError(error: Error | null): string | undefined {
  if (!error) return undefined;
  if (!(error instanceof ApiError)) return 'Sorry, there was an error processing your request. Please try again.';
  const remaining = error.body.remainingAttempts;
  return error.body.error === 'verification_failed' && typeof remaining === 'number' ? wrongCodeMessage(remaining) : error.message;
}

/**
 * DECISIONS "Scan modes" [attacker]: a same-domain lead's passive report while its address is not
 * proven. The code mailed to the address, typed here, runs the full scan as a new report (the page
 * then goes there and follows its progress; this one stays, linked to it). The address is named only in the browser that sent the lead.
 */
export function ConfirmAddressPanel({ audit, result }: { audit: Audit; result: AuditResultView }) {
  const [code, setCode] = useState('');
  const confirm = useConfirmAddress(audit.id);
  const navigate = useNavigate();
  if (audit.status !== 'completed' || result.address_proof_pending !== true) return null;

  const error = confirmError(confirm.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The full scan is a new report (issue 29 item 6): the page follows it there. Through the promise, not mutate's
    // onSuccess: reading this report afresh unmounts the panel (no proof pending any more), and React Query skips the
    // callbacks of an unmounted caller, so the page stayed on the partial report.
    confirm
      .mutateAsync(code.trim())
      .then((queued) => navigate(paths.results.getHref(queued.auditId)))
      .catch(() => undefined); // shown from confirm.error
  };
  return (
    <section
      aria-labelledby="confirm-address-heading"
      data-testid="confirm-address-panel"
      className="rounded-xl border border-blue-200 bg-white p-5 shadow-sm dark:border-blue-800 dark:bg-slate-900"
    >
      <h2 id="confirm-address-heading" className="text-lg font-bold text-slate-900 dark:text-slate-100">
        {addressProofMessages.prompt(rememberedAddressProof(audit.id))}
      </h2>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <TextField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
        />
        <Button type="submit" className="min-h-11" disabled={confirm.isPending} aria-busy={confirm.isPending}>
          {confirm.isPending ? (
            <>
              <Spinner className="size-4" />
              Starting the full scan…
            </>
          ) : (
            'Confirm and run the full scan'
          )}
        </Button>
      </form>
    </section>
  );
}

import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import { EMPTY_EMAIL_MESSAGE, type ReportEmailTarget, useEmailReport } from '../api/email-report';

/**
 * Sends a report to an address: the audit's (`auditId`, `POST /api/audits/{id}/email`, the signed-in
 * owner) or a shared one (`shareToken`, `POST /api/shared-audits/{token}/email`, a live link the owner
 * made); a refusal shows the API's reason.
 */
export function EmailReportDialog({
  description,
  note,
  onClose,
  ...target
}: ReportEmailTarget & {
  description: string;
  /** A line under the field: what sending costs (a share link's use). */
  note?: string;
  onClose: () => void;
}) {
  const send = useEmailReport(target);
  const [email, setEmail] = useState('');
  const [emptyError, setEmptyError] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = email.trim();
    setEmptyError(address === '');
    if (address === '') return;
    send.mutate(address);
  };

  return (
    <Dialog title="Email Report" description={description} onClose={onClose}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label="Email address"
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setEmptyError(false);
            send.reset();
          }}
        />
        {note && <p className="text-sm text-slate-600 dark:text-slate-400">{note}</p>}
        {emptyError && <FormMessage tone="error">{EMPTY_EMAIL_MESSAGE}</FormMessage>}
        {send.isError && <FormMessage tone="error">{send.error.message}</FormMessage>}
        {send.isSuccess && <FormMessage tone="success">{send.data.message}</FormMessage>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {send.isSuccess ? 'Done' : 'Cancel'}
          </Button>
          <Button type="submit" disabled={send.isPending}>
            {send.isPending && <Spinner className="size-4" />}
            Send Report
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

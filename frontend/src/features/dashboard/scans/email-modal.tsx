import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage, TextField } from '../../../components/ui/text-field';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import { EMPTY_EMAIL_MESSAGE, useEmailReport } from '../../audits/api/email-report';
import { Dialog } from '../../../components/ui/dialog';

/** Sends the audit's report to an address through `POST /api/audits/{id}/email`. */
export function EmailModal({ audit, onClose }: { audit: AuditHistoryEntry; onClose: () => void }) {
  const send = useEmailReport(audit.id);
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
    <Dialog title="Email Report" description={audit.domain} onClose={onClose}>
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

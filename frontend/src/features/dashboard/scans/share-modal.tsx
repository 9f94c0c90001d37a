import { useEffect, useRef } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import { useCreateShare } from '../../audits/api/create-share';
import { ShareLinkPanel } from '../../audits/components/share-report';
import { Dialog } from '../../../components/ui/dialog';

/** DECISIONS "Sharing": opening the modal creates a 24-hour `/share/{token}` link and shows the API's url. */
export function ShareModal({ audit, onClose }: { audit: AuditHistoryEntry; onClose: () => void }) {
  const share = useCreateShare(audit.id);
  const { mutate } = share;
  // One link per opening, even when React runs effects twice in development.
  const requested = useRef(false);
  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    mutate();
  }, [mutate]);

  return (
    <Dialog title="Share Report" description={audit.domain} onClose={onClose}>
      {share.isPending && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <Spinner className="size-4" />
          Creating a share link…
        </p>
      )}
      <ShareLinkPanel share={share} />
    </Dialog>
  );
}

import type { AuditHistoryEntry } from '../../../lib/contracts';
import { EmailReportDialog } from '../../audits/components/email-report-dialog';

/** Email Report from the owner's Scans list: the session's token tells the API who asks. */
export function EmailModal({ audit, onClose }: { audit: AuditHistoryEntry; onClose: () => void }) {
  return <EmailReportDialog auditId={audit.id} description={audit.domain} onClose={onClose} />;
}

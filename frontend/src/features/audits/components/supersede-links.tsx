import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { scanModeContent } from '../../../config/scan-modes';
import type { Audit, AuditResultView } from '../../../lib/contracts';
import { formatDate } from './format';

const text = scanModeContent.supersede;

/**
 * Issue 29 item 6 (DECISIONS "Scan modes": each scan is its own history entry): a partial report
 * links to the full scan that replaced it (an unlock, a confirmed address), and the full scan links
 * back to it with its date. Read from the report view, or from the audit while the new scan runs.
 */
export function SupersedeLinks({ audit, result, mode }: { audit: Audit; result?: AuditResultView; mode: 'public' | 'dashboard' }) {
  const next = result?.superseded_by?.audit_id ?? audit.supersededBy?.auditId;
  const previous = result?.supersedes ?? (audit.supersedes ? { audit_id: audit.supersedes.auditId, completed_at: audit.supersedes.completedAt ?? null } : undefined);
  if (!next && !previous) return null;
  const href = mode === 'dashboard' ? paths.dashboard.audit.getHref : paths.results.getHref;
  return (
    <nav aria-label="Other scans of this report" data-testid="supersede-links" className="space-y-2">
      {next && (
        <p className="rounded-md border border-blue-200 bg-blue-50 px-4 py-3 text-sm dark:border-blue-800 dark:bg-blue-950">
          <Link to={href(next)} className="font-semibold text-blue-900 underline dark:text-blue-100">
            {text.replacedBy}
          </Link>
        </p>
      )}
      {previous && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          <Link to={href(previous.audit_id)} className="underline">
            {text.replaces(formatDate(previous.completed_at ?? undefined))}
          </Link>
        </p>
      )}
    </nav>
  );
}

import { useParams, useSearchParams } from 'react-router';
import { StatusPanel } from '../../components/ui/status-panel';
import { content } from '../../config/content';
import { AuditResults } from '../../features/audits/components/audit-results';
import { isAuditId, isSampleAuditId } from '../../lib/report-contract';

export function ResultsRoute() {
  const { auditId } = useParams();
  const [search] = useSearchParams();
  // DECISIONS "Sharing": ?shared=true is the read-only view, without share and dashboard controls.
  const mode = search.get('shared') === 'true' ? 'shared' : 'public';
  // demo_/audit_ ids open the labelled sample report the API serves for them (SPEC §4).
  const valid = auditId !== undefined && (isAuditId(auditId) || isSampleAuditId(auditId));
  return (
    <>
      <title>{`Security report — ${content.productName}`}</title>
      {valid ? (
        // Keyed by id so moving between reports starts each one from its own loading state.
        <AuditResults key={auditId} auditId={auditId} mode={mode} />
      ) : (
        <StatusPanel title="Invalid audit ID" role="alert">
          <p className="mt-3 text-slate-600 dark:text-slate-400">This link does not contain a valid audit ID.</p>
        </StatusPanel>
      )}
    </>
  );
}

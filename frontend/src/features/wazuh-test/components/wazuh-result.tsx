import { readWazuhItems, WAZUH_STATUS_ANALYSIS, wazuhMessages, type WazuhTestResult } from '../../../lib/contracts';
import { cardClass } from './wazuh-guide';

export type ShownResult = WazuhTestResult & { certificateTrusted?: boolean; listsAgents: boolean };

const rawText = (data: unknown): string => (typeof data === 'string' ? data : JSON.stringify(data, null, 2) ?? '');

function Banner({ result }: { result: ShownResult }) {
  const tone = result.success
    ? 'border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-200'
    : 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200';
  return (
    <div role={result.success ? 'status' : 'alert'} aria-label="Test result" data-timestamp={result.timestamp} className={`rounded-xl border p-4 ${tone}`}>
      <p className="text-lg font-semibold">{result.success ? 'API Test Successful' : wazuhMessages.testFailed}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-semibold">Status</dt>
        <dd>{result.status === 0 ? 'No answer' : result.status}</dd>
        <dt className="font-semibold">Endpoint</dt>
        <dd className="break-all font-mono text-xs">{result.endpoint}</dd>
        {result.error && (
          <>
            <dt className="font-semibold">Message</dt>
            <dd>{result.error}</dd>
          </>
        )}
        <dt className="font-semibold">Tested at</dt>
        <dd>{new Date(result.timestamp).toLocaleString('en-AU')}</dd>
      </dl>
    </div>
  );
}

function Analysis({ result }: { result: ShownResult }) {
  const known = WAZUH_STATUS_ANALYSIS.find((entry) => entry.status === result.status);
  const list = result.success ? readWazuhItems(result.data) : undefined;
  let meaning: string;
  if (known) meaning = known.meaning;
  else if (result.status === 0) meaning = 'No HTTP answer: the address, the port, the certificate or the manager’s CORS settings stopped the request before Wazuh could answer.';
  else meaning = result.success ? 'The manager answered.' : 'An unexpected status: see the raw response for Wazuh’s reason.';
  return (
    <section aria-labelledby="wazuh-analysis" className={cardClass}>
      <h2 id="wazuh-analysis" className="text-lg font-semibold">
        Analysis
      </h2>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        <span className="font-mono font-semibold">{result.status === 0 ? '—' : result.status}</span> {meaning}
      </p>
      {list && (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          Items found: <span className="font-semibold">{list.total}</span>
        </p>
      )}
      {result.certificateTrusted === false && (
        <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">
          The manager&apos;s certificate is not trusted (Wazuh installs a self-signed one by default). Rampart relayed the request anyway; install a certificate from a
          trusted authority before relying on this connection.
        </p>
      )}
      <ul className="mt-3 space-y-1 text-xs text-slate-600 dark:text-slate-400">
        {WAZUH_STATUS_ANALYSIS.map(({ status, meaning: text }) => (
          <li key={status} className={status === result.status ? 'font-semibold text-slate-900 dark:text-white' : ''}>
            {status}: {text}
          </li>
        ))}
      </ul>
    </section>
  );
}

function AgentsTable({ result }: { result: ShownResult }) {
  const list = readWazuhItems(result.data, 3);
  if (!list) return null;
  return (
    <section aria-labelledby="wazuh-agents" className={cardClass}>
      <h2 id="wazuh-agents" className="text-lg font-semibold">
        Agents ({list.items.length} of {list.total} shown)
      </h2>
      {list.items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No agents matched.</p>
      ) : (
        <table className="mt-3 w-full text-left text-sm">
          <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
            <tr>
              <th className="py-1 pr-3">Name</th>
              <th className="py-1 pr-3">IP</th>
              <th className="py-1 pr-3">Status</th>
              <th className="py-1">Group</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((agent, index) => (
              <tr key={`${agent.name}-${index}`} className="border-t border-slate-200 dark:border-slate-700">
                <td className="py-1 pr-3 font-mono text-xs">{agent.name}</td>
                <td className="py-1 pr-3 font-mono text-xs">{agent.ip}</td>
                <td className="py-1 pr-3">{agent.status}</td>
                <td className="py-1">{agent.group}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** SPEC §2: the banner with status and endpoint, the raw response (height-limited), the analysis and the first 3 agents. */
export function WazuhResult({ result }: { result: ShownResult }) {
  return (
    <div className="space-y-4">
      <Banner result={result} />
      <Analysis result={result} />
      {result.success && result.listsAgents && <AgentsTable result={result} />}
      <section aria-labelledby="wazuh-raw" className={cardClass}>
        <h2 id="wazuh-raw" className="text-lg font-semibold">
          Raw response
        </h2>
        <pre data-testid="wazuh-raw-response" className="mt-2 max-h-80 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100" tabIndex={0}>
          {result.data === null ? '(no response body)' : rawText(result.data)}
        </pre>
      </section>
    </div>
  );
}

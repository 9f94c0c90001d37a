import { content } from '../../../config/content';
import { DEFAULT_WAZUH_ENDPOINT, productSlug, WAZUH_REQUIRED_PERMISSIONS, WAZUH_STATUS_ANALYSIS, WAZUH_TEST_TYPES } from '../../../lib/contracts';

export const cardClass = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const codeClass = 'block overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100';

/** SPEC §2: the how-to-get-a-token guide, the permissions, example endpoints and expected results. */
export function WazuhGuide() {
  const slug = productSlug(content.productName);
  return (
    <div className="space-y-6">
      <section aria-labelledby="wazuh-token-guide" className={cardClass}>
        <h2 id="wazuh-token-guide" className="text-lg font-semibold">
          How to get a Wazuh API token
        </h2>
        <ol className="mt-3 list-decimal space-y-3 pl-5 text-sm text-slate-700 dark:text-slate-300">
          <li>
            Ask Wazuh&apos;s API for a token with your API user&apos;s name and password (HTTP basic authentication):
            <code className={`${codeClass} mt-2`}>{`curl -k -u <api-user>:<password> -X POST "${DEFAULT_WAZUH_ENDPOINT}/security/user/authenticate?raw=true"`}</code>
            <span className="mt-1 block text-xs">
              Without <code>?raw=true</code> the answer is JSON and the token is in <code>data.token</code>. The <code>-k</code> accepts the
              self-signed certificate Wazuh installs by default.
            </span>
          </li>
          <li>Paste the token above. Tokens expire after 900 seconds by default: ask for a new one when the test answers 401.</li>
          <li>Use the address your browser can reach: the manager&apos;s host name and the API port, 55000 unless you changed it.</li>
        </ol>
      </section>

      <section aria-labelledby="wazuh-permissions" className={cardClass}>
        <h2 id="wazuh-permissions" className="text-lg font-semibold">
          Required permissions
        </h2>
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">The API user&apos;s role needs these actions (a read-only role is enough):</p>
        <ul className="mt-2 flex flex-wrap gap-2">
          {WAZUH_REQUIRED_PERMISSIONS.map((permission) => (
            <li key={permission} className="rounded-full bg-slate-100 px-3 py-1 font-mono text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-200">
              {permission}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="wazuh-examples" className={cardClass}>
        <h2 id="wazuh-examples" className="text-lg font-semibold">
          Example endpoints
        </h2>
        <ul className="mt-2 space-y-1 text-sm text-slate-700 dark:text-slate-300">
          {WAZUH_TEST_TYPES.map((test) => (
            <li key={test.type}>
              <span className="font-semibold">{test.label}:</span> <code className="font-mono text-xs">GET {test.path.replace('{product}', slug)}</code>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          {content.productName}&apos;s agents are named <code>{slug}-{'{domain}'}</code>, grouped by the domain with dashes, and labelled with the
          customer&apos;s email and domain.
        </p>
      </section>

      <section aria-labelledby="wazuh-expected" className={cardClass}>
        <h2 id="wazuh-expected" className="text-lg font-semibold">
          Expected results
        </h2>
        <ul className="mt-2 space-y-1 text-sm text-slate-700 dark:text-slate-300">
          {WAZUH_STATUS_ANALYSIS.map(({ status, meaning }) => (
            <li key={status}>
              <span className="font-mono font-semibold">{status}</span> — {meaning}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

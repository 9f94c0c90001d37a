import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { FormMessage } from '../../../components/ui/text-field';
import { content } from '../../../config/content';
import { paths } from '../../../config/paths';
import {
  DEFAULT_WAZUH_ENDPOINT,
  isHostName,
  parseWazuhEndpoint,
  productSlug,
  WAZUH_TEST_TYPES,
  wazuhAgentName,
  wazuhMessages,
  wazuhTestPath,
  type WazuhTestType,
} from '../../../lib/contracts';
import { useAuth } from '../../auth/auth-provider';
import { callWazuhDirect, callWazuhRelay } from '../api/wazuh-request';
import { cardClass, WazuhGuide } from './wazuh-guide';
import { WazuhResult, type ShownResult } from './wazuh-result';

const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 focus:outline-2 focus:outline-blue-700 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100';
const labelClass = 'block text-sm font-semibold text-slate-800 dark:text-slate-200';
const smallButton = 'rounded-md px-3 py-2 text-xs font-semibold text-blue-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 disabled:opacity-50 dark:text-blue-400 dark:ring-slate-600 dark:hover:bg-slate-800';

type Notice = { tone: 'error' | 'success'; text: string };

/** SPEC §2 "Wazuh tester": idle, testing (button disabled), then success or failure (§4). */
export function WazuhTester() {
  const auth = useAuth();
  const signedIn = auth.status === 'signed-in';
  const slug = productSlug(content.productName);
  const ids = { endpoint: useId(), token: useId(), type: useId(), domain: useId(), relay: useId() };
  const [endpoint, setEndpoint] = useState(DEFAULT_WAZUH_ENDPOINT);
  const [token, setToken] = useState('');
  const [tokenShown, setTokenShown] = useState(false);
  const [testType, setTestType] = useState<WazuhTestType>('server-info');
  const [domain, setDomain] = useState('');
  const [viaRelay, setViaRelay] = useState(false);
  const [testing, setTesting] = useState(false);
  const [notice, setNotice] = useState<Notice>();
  const [result, setResult] = useState<ShownResult>();
  const running = useRef<AbortController | undefined>(undefined);

  const byName = testType === 'agents-by-name';
  const canTest = !testing && endpoint !== '' && token !== '' && (!byName || domain !== '');

  const copyToken = async () => {
    try {
      await navigator.clipboard.writeText(token);
      setNotice({ tone: 'success', text: wazuhMessages.tokenCopied });
    } catch (error) {
      // SPEC §8: a clipboard failure is only logged.
      console.warn('Could not copy the token to the clipboard', error);
    }
  };

  const test = async (event: FormEvent) => {
    event.preventDefault();
    if (testing) return;
    if (token.trim() === '') return setNotice({ tone: 'error', text: wazuhMessages.tokenMissing });
    if (endpoint.trim() === '') return setNotice({ tone: 'error', text: wazuhMessages.endpointMissing });
    const base = parseWazuhEndpoint(endpoint);
    if (!base) return setNotice({ tone: 'error', text: wazuhMessages.endpointInvalid });
    const host = domain.trim().toLowerCase();
    if (byName && !isHostName(host)) return setNotice({ tone: 'error', text: wazuhMessages.domainInvalid });
    setNotice(undefined);
    setResult(undefined);
    setTesting(true);
    const controller = new AbortController();
    running.current = controller;
    const request = { endpoint: base, path: wazuhTestPath(testType, byName ? wazuhAgentName(slug, host) : ''), token: token.trim() };
    const call = viaRelay && signedIn ? callWazuhRelay : callWazuhDirect;
    const outcome = await call(request, controller.signal);
    if (running.current !== controller) return;
    setResult({ ...outcome, listsAgents: testType !== 'server-info' && testType !== 'groups' });
    setTesting(false);
  };

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Wazuh API Tester</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Check that your Wazuh manager&apos;s API answers with your token, and what it lists for your {content.productName} agents.
          </p>
        </div>
        {/* A full page load: the dashboard has the site's stricter CSP, this page its own (lib/site/security-headers.ts). */}
        <Link to={paths.dashboard.root.getHref()} reloadDocument className={buttonClass('secondary')}>
          Back to Dashboard
        </Link>
      </div>

      <form onSubmit={test} className={`${cardClass} space-y-4`} noValidate>
        <div>
          <label htmlFor={ids.endpoint} className={labelClass}>
            Wazuh API endpoint
          </label>
          <div className="mt-1 flex gap-2">
            <input id={ids.endpoint} type="text" inputMode="url" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} className={inputClass} autoComplete="url" spellCheck={false} />
            <button type="button" className={smallButton} onClick={() => setEndpoint(DEFAULT_WAZUH_ENDPOINT)}>
              Reset
            </button>
          </div>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">The manager&apos;s API base, such as {DEFAULT_WAZUH_ENDPOINT}.</p>
        </div>

        <div>
          <label htmlFor={ids.token} className={labelClass}>
            API token
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={ids.token}
              type={tokenShown ? 'text' : 'password'}
              value={token}
              onChange={(e) => setToken(e.target.value)}
              className={`${inputClass} font-mono`}
              autoComplete="off"
              spellCheck={false}
            />
            <button type="button" className={smallButton} onClick={() => setTokenShown((shown) => !shown)} aria-label={tokenShown ? 'Hide token' : 'Show token'}>
              {tokenShown ? 'Hide' : 'Show'}
            </button>
            <button type="button" className={smallButton} onClick={() => void copyToken()} disabled={token === ''} aria-label="Copy token">
              Copy
            </button>
          </div>
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={ids.type} className={labelClass}>
              Test type
            </label>
            <select id={ids.type} value={testType} onChange={(e) => setTestType(e.target.value as WazuhTestType)} className={`${inputClass} mt-1`}>
              {WAZUH_TEST_TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {`${t.label} (${t.path.replace('{product}', slug)})`}
                </option>
              ))}
            </select>
          </div>
          {byName && (
            <div>
              <label htmlFor={ids.domain} className={labelClass}>
                Domain
              </label>
              <input
                id={ids.domain}
                value={domain}
                onChange={(e) => setDomain(e.target.value)}
                placeholder="example.com"
                className={`${inputClass} mt-1`}
                spellCheck={false}
              />
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                Searches for the agent named <code>{wazuhAgentName(slug, domain || '{domain}')}</code>.
              </p>
            </div>
          )}
        </div>

        {signedIn && (
          <div className="flex items-start gap-2">
            <input id={ids.relay} type="checkbox" checked={viaRelay} onChange={(e) => setViaRelay(e.target.checked)} className="mt-1" />
            <div>
              <label htmlFor={ids.relay} className="text-sm font-semibold text-slate-800 dark:text-slate-200">
                Send through {content.productName} (for managers without CORS)
              </label>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {content.productName}&apos;s server sends this one request for you and shows the answer; it keeps neither the token nor the answer, and reaches only
                managers on the public internet.
              </p>
            </div>
          </div>
        )}

        {notice && <FormMessage tone={notice.tone}>{notice.text}</FormMessage>}

        <Button type="submit" disabled={!canTest}>
          {testing ? (
            <>
              <Spinner /> {wazuhMessages.testing}
            </>
          ) : (
            'Test API'
          )}
        </Button>
      </form>

      {result && <WazuhResult result={result} />}

      <WazuhGuide />
    </div>
  );
}

import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { content } from '../../../config/content';
import {
  BADGE_DEFAULTS,
  badgeDimensions,
  badgeEmbedCode,
  badgeSizes,
  badgeStyles,
  badgeThemes,
  badgeUrl,
  verifyUrl,
  type BadgeOptions,
  type MyBadgeView,
} from '../../../lib/contracts';
import { FilterSelect, type FilterOption } from '../history/filter-select';
import { badgeImageSrc, fetchBadgeSvg } from './api/badges';
import { saveFile } from '../../../lib/save-file';
import { useCopy } from '../../../lib/use-copy';

export { COPIED_FOR_MS } from '../../../lib/use-copy';
export const COPIED = 'Copied to clipboard!';
export const COPY_FAILED = 'Could not copy. Select the code and copy it yourself.';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const codeBox =
  'block w-full rounded-lg border border-slate-300 bg-slate-50 p-2 font-mono text-xs break-all text-slate-800 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-200';

const capitalised = <T extends string>(values: readonly T[]): FilterOption<T>[] =>
  values.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));

const themeOptions = capitalised(badgeThemes);
const sizeOptions = capitalised(badgeSizes);
const styleOptions = capitalised(badgeStyles);

/** The file Download SVG saves. */
export const badgeFileName = (domain: string): string => `${domain}-badge.svg`;

type DownloadState = { state: 'idle' } | { state: 'downloading' } | { state: 'failed'; message: string };

/** The documented badge URL pattern (DECISIONS "Badge and verify"), every option and its default. */
function ApiPanel({ id, siteUrl, domain, options }: { id: string; siteUrl: string; domain: string; options: BadgeOptions }) {
  const pattern = `${siteUrl}/badge/{domain}.svg?theme=${badgeThemes.join('|')}&size=${badgeSizes.join('|')}&style=${badgeStyles.join('|')}`;
  const rows = [
    { label: 'Badge URL pattern', value: pattern },
    { label: 'This badge', value: badgeUrl({ siteUrl, domain, ...options }) },
    { label: 'Verification page', value: verifyUrl({ siteUrl, domain }) },
  ];
  return (
    <div id={id} className="mt-4 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <h3 className="font-semibold">Badge API</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        A public <code>GET</code> answering an SVG image (<code>image/svg+xml</code>), no key needed. Every parameter is optional: theme{' '}
        {BADGE_DEFAULTS.theme}, size {BADGE_DEFAULTS.size} and style {BADGE_DEFAULTS.style} by default. A domain that is not eligible gets the
        neutral &quot;not verified&quot; badge.
      </p>
      <dl className="mt-3 space-y-3">
        {rows.map((row) => (
          <div key={row.label}>
            <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">{row.label}</dt>
            <dd className="mt-1">
              <code className={codeBox}>{row.value}</code>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * SPEC §2 "Security Badge page": choose the domain, theme, size and style; the preview is the real
 * badge from the API (eligibility is the server's), the embed code links it to the verify page.
 */
export function BadgeCustomiser({ badges }: { badges: readonly MyBadgeView[] }) {
  const [chosen, setChosen] = useState(() => (badges.find((badge) => badge.eligible) ?? badges[0])?.domain ?? '');
  const [options, setOptions] = useState<BadgeOptions>({ ...BADGE_DEFAULTS });
  const { state: copyState, copy: copyText } = useCopy();
  const [download, setDownload] = useState<DownloadState>({ state: 'idle' });
  const [showApi, setShowApi] = useState(false);
  const [failedSrc, setFailedSrc] = useState<string>();
  const apiPanelId = useId();
  const embedId = useId();

  // A domain removed since it was chosen falls back to the first one.
  const selected = badges.find((badge) => badge.domain === chosen) ?? badges[0];
  if (!selected) return null;
  const domain = selected.domain;
  const siteUrl = window.location.origin;
  const src = badgeImageSrc(domain, options);
  const { width, height } = badgeDimensions(options.style, options.size);
  const embedCode = badgeEmbedCode({ siteUrl, domain, ...options, productName: content.productName });
  const set = (change: Partial<BadgeOptions>) => setOptions((current) => ({ ...current, ...change }));

  const copy = () => copyText(embedCode);

  const downloadSvg = async () => {
    setDownload({ state: 'downloading' });
    try {
      saveFile(await fetchBadgeSvg(domain, options), badgeFileName(domain));
      setDownload({ state: 'idle' });
    } catch (error) {
      setDownload({ state: 'failed', message: error instanceof Error ? error.message : 'Something went wrong.' });
    }
  };

  return (
    <section className={card} aria-labelledby="badge-customise">
      <h2 id="badge-customise" className="text-lg font-semibold">
        Customise your badge
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <FilterSelect label="Domain" value={domain} options={badges.map((badge) => ({ value: badge.domain, label: badge.domain }))} onChange={setChosen} />
        <FilterSelect label="Theme" value={options.theme} options={themeOptions} onChange={(theme) => set({ theme })} />
        <FilterSelect label="Size" value={options.size} options={sizeOptions} onChange={(size) => set({ size })} />
        <FilterSelect label="Style" value={options.style} options={styleOptions} onChange={(style) => set({ style })} />
      </div>

      <figure className="mt-5">
        <div className={`flex min-h-32 items-center justify-center overflow-x-auto rounded-xl p-6 ${options.theme === 'dark' ? 'bg-slate-800' : 'bg-slate-100'}`}>
          <img
            src={src}
            alt={`Badge preview for ${domain}`}
            width={width}
            height={height}
            onError={() => setFailedSrc(src)}
            onLoad={() => setFailedSrc(undefined)}
            className="max-w-none"
          />
        </div>
        <figcaption className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Live preview: the badge exactly as visitors will see it now.
          {failedSrc === src && <span className="ml-1 text-red-700 dark:text-red-400">The badge could not be loaded.</span>}
        </figcaption>
      </figure>
      {!selected.eligible && (
        <p className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
          {domain} is not eligible yet, so its badge says &quot;not verified&quot;, with no grade, until it is. You can embed it now: it will show the grade
          once the requirements below are met.
        </p>
      )}

      <label htmlFor={embedId} className="mt-5 block text-sm font-semibold">
        Embed code
      </label>
      <textarea id={embedId} readOnly rows={4} value={embedCode} className={`mt-1 resize-none ${codeBox}`} onFocus={(event) => event.currentTarget.select()} />
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button onClick={() => void copy()}>Copy Code</Button>
        <Button variant="secondary" onClick={() => void downloadSvg()} disabled={download.state === 'downloading'}>
          {download.state === 'downloading' && <Spinner className="size-4" />}
          Download SVG
        </Button>
        <Button variant="secondary" aria-expanded={showApi} aria-controls={apiPanelId} onClick={() => setShowApi((shown) => !shown)}>
          Get API
        </Button>
        <p role="status" className="min-h-5 text-sm font-medium text-green-700 dark:text-green-400">
          {copyState === 'copied' && COPIED}
          {copyState === 'failed' && <span className="text-red-700 dark:text-red-400">{COPY_FAILED}</span>}
        </p>
      </div>
      {download.state === 'failed' && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          The badge could not be downloaded: {download.message}
        </p>
      )}
      {showApi && <ApiPanel id={apiPanelId} siteUrl={siteUrl} domain={domain} options={options} />}
    </section>
  );
}

import { Button } from '../../../components/ui/button';
import { content } from '../../../config/content';
import { badgeEmbedCode, badgeFileName, BADGE_HEIGHT, BADGE_WIDTH, sampleBadgeSvg, svgDataUrl } from '../lib/sample-badge';
import { saveFile } from '../../../lib/save-file';
import { useCopy } from '../../../lib/use-copy';
import { cardClass } from './section';

export { COPIED_FOR_MS } from '../../../lib/use-copy';

/** The badge card of the command centre: a sample badge, its embed code, Copy Code and Download. */
export function SecurityBadgeCard() {
  const copy = content.commandCentre.badge;
  const productName = content.productName;
  const svg = sampleBadgeSvg(productName);
  const embedCode = badgeEmbedCode(window.location.origin, productName);
  const { state: copyState, copy: copyText } = useCopy();
  const copyCode = () => copyText(embedCode);

  const download = () => saveFile(new Blob([svg], { type: 'image/svg+xml' }), badgeFileName(productName));

  return (
    <li className={`flex flex-col ${cardClass}`}>
      <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{copy.title}</h3>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{copy.body}</p>
      <div className="mt-4 flex justify-center rounded-xl bg-slate-100 p-4 dark:bg-slate-800">
        <img src={svgDataUrl(svg)} alt={`Sample badge: Protected by ${productName}, grade A`} width={BADGE_WIDTH} height={BADGE_HEIGHT} className="h-auto max-w-full" />
      </div>
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{copy.sampleNote}</p>
      <label htmlFor="badge-embed-code" className="mt-4 text-sm font-semibold text-slate-900 dark:text-white">
        Embed code
      </label>
      <textarea
        id="badge-embed-code"
        readOnly
        rows={5}
        value={embedCode}
        className="mt-1 w-full resize-none rounded-lg break-all border border-slate-300 bg-slate-50 p-2 font-mono text-xs text-slate-800 focus-visible:outline-2 focus-visible:outline-blue-700 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-200 dark:focus-visible:outline-blue-400"
      />
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button onClick={() => void copyCode()}>{copy.copyButton}</Button>
        <Button variant="secondary" onClick={download}>
          {copy.downloadButton}
        </Button>
        <p role="status" className="min-h-5 text-sm font-medium text-green-700 dark:text-green-400">
          {copyState === 'copied' && copy.copied}
          {copyState === 'failed' && <span className="text-red-700 dark:text-red-400">{copy.copyFailed}</span>}
        </p>
      </div>
    </li>
  );
}

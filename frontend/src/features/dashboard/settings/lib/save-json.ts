import { content } from '../../../../config/content';
import { saveFile } from '../../../../lib/save-file';

const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

const isoDay = (date: Date): string =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** DECISIONS "Retention and rights": `{slug}-my-data-YYYY-MM-DD.json`, dated in the user's own time zone. */
export const myDataFileName = (date: Date, productName: string = content.productName): string =>
  `${slug(productName)}-my-data-${isoDay(date)}.json`;

/** Saves `data` as a pretty-printed JSON file through a temporary download link. */
export function saveJson(data: unknown, fileName: string): void {
  saveFile(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), fileName);
}

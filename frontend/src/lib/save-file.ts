/** Object URLs are released a little after the click, once the browser has started the download. */
const REVOKE_AFTER_MS = 1_000;

/** Saves `blob` as `fileName` through a temporary `<a download>` pointing at an object URL. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

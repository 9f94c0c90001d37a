import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPIED_FOR_MS, SecurityBadgeCard } from './security-badge-card';

const COPIED = 'Copied to clipboard!';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(writeText) }, configurable: true });
  return navigator.clipboard.writeText as ReturnType<typeof vi.fn>;
}

describe('the security badge card', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("copies the embed code and says 'Copied to clipboard!' for 2 seconds", async () => {
    // Prepare
    const writeText = stubClipboard(async () => undefined);
    render(<ul><SecurityBadgeCard /></ul>);
    const embedCode = (screen.getByLabelText('Embed code') as HTMLTextAreaElement).value;

    // Act
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Code' }));
    });

    // Assess
    expect(writeText).toHaveBeenCalledWith(embedCode);
    expect(embedCode).toContain(`href="${window.location.origin}/verify/example.com"`);
    expect(embedCode).toContain(`src="${window.location.origin}/badge/example.com.svg?theme=light&amp;size=medium"`);
    expect(embedCode).toContain('alt="Protected by Rampart"');
    expect(screen.getByRole('status').textContent).toBe(COPIED);

    // Act
    await act(async () => vi.advanceTimersByTime(COPIED_FOR_MS - 1));

    // Assess
    expect(screen.getByRole('status').textContent).toBe(COPIED);

    // Act
    await act(async () => vi.advanceTimersByTime(1));

    // Assess
    expect(COPIED_FOR_MS).toBe(2000);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('starts the 2 seconds again when Copy Code is pressed a second time', async () => {
    // Prepare
    stubClipboard(async () => undefined);
    render(<ul><SecurityBadgeCard /></ul>);
    const copy = screen.getByRole('button', { name: 'Copy Code' });
    await act(async () => fireEvent.click(copy));
    await act(async () => vi.advanceTimersByTime(1500));

    // Act
    await act(async () => fireEvent.click(copy));
    await act(async () => vi.advanceTimersByTime(1500));

    // Assess
    expect(screen.getByRole('status').textContent).toBe(COPIED);
  });

  it('says so when the browser refuses the clipboard, instead of claiming it copied', async () => {
    // Prepare
    stubClipboard(async () => {
      throw new DOMException('Write permission denied.', 'NotAllowedError');
    });
    render(<ul><SecurityBadgeCard /></ul>);

    // Act
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Code' })));

    // Assess
    expect(screen.getByRole('status').textContent).toBe('Could not copy. Select the code and copy it yourself.');
  });

  it('downloads the sample badge it shows as an SVG file', async () => {
    // Prepare
    let saved: Blob | undefined;
    const createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:badge';
    });
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    render(<ul><SecurityBadgeCard /></ul>);
    const shown = decodeURIComponent((screen.getByRole('img') as HTMLImageElement).src.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''));

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));

    // Assess
    expect(clicked).toHaveLength(1);
    expect(clicked[0]?.download).toBe('rampart-badge-sample.svg');
    expect(clicked[0]?.href).toBe('blob:badge');
    expect(saved?.type).toBe('image/svg+xml');
    const svg = await saved!.text();
    expect(svg).toBe(shown);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('Protected by Rampart');
    // Released once the browser has started the download (lib/save-file.ts).
    await vi.waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:badge'), { timeout: 2_000 });
  });
});

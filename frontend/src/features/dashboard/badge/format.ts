/** '22 Nov 2026' (en-AU), in the viewer's time zone. */
export const shortDate = (iso: string): string => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * DECISIONS "Bot markers": one list everywhere — the lead submission guard, the local server's
 * crawler page and the CloudFront Function (lib/ renders this list into the function's code).
 */
export const BOT_MARKERS = [
  'bot', 'crawler', 'spider', 'scraper', 'chatgpt', 'gptbot', 'openai', 'claude', 'bard', 'bing',
  'google', 'facebook', 'twitter', 'linkedin', 'whatsapp', 'telegram', 'slack',
] as const;

export function isBotUserAgent(userAgent: string | undefined | null): boolean {
  if (!userAgent) return false;
  const ua = userAgent.toLowerCase();
  return BOT_MARKERS.some((marker) => ua.includes(marker));
}

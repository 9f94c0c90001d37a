import { describe, expect, it } from 'vitest';
import { isBotUserAgent } from '../../lambdas/domain/bots.js';

describe('bot user agents', () => {
  it.each(['Mozilla/5.0 (compatible; Googlebot/2.1)', 'GPTBot/1.0', 'facebookexternalhit/1.1', 'Slackbot-LinkExpanding', 'ClaudeBot'])(
    'treats %s as a bot',
    (ua) => expect(isBotUserAgent(ua)).toBe(true),
  );

  it.each(['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36', '', undefined])('treats %j as a person', (ua) => {
    expect(isBotUserAgent(ua)).toBe(false);
  });
});

import { escapeHtml } from '../domain/emails.js';
import { unsubscribeAlerts } from '../use-cases/monitoring.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The page the unsubscribe link opens: no scripts, no styles, nothing loaded. */
function page(productName: string, siteUrl: string): string {
  const settings = `${siteUrl.replace(/\/+$/, '')}/dashboard/settings`;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>You are unsubscribed - ${escapeHtml(productName)}</title></head><body>`,
    '<h1>You are unsubscribed</h1>',
    `<p>${escapeHtml(productName)} will no longer email you monitoring alerts, security updates or scan completions, and alert SMS stop with them.</p>`,
    `<p>You can turn them back on at any time in <a href="${escapeHtml(settings)}">Settings → Notifications</a>.</p>`,
    '</body></html>',
  ].join('\n');
}

/** `GET /api/alerts/unsubscribe?token=…`: the signed link of every monitoring email; an invalid token is a 400. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await unsubscribeAlerts(deps, request.event.queryStringParameters?.token);
    return {
      status: 200,
      text: page(deps.config.PRODUCT_NAME, deps.config.SITE_URL),
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'", 'referrer-policy': 'no-referrer' },
    };
  });


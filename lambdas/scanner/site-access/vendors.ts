/**
 * DECISIONS "Blocked is a result": the vendors whose bot challenges, block pages and rate limits the
 * scanner recognises by name. Each signature answers one question: is this response the vendor's
 * wall (challenge, block or rate limit), rather than the site? A vendor's mark on the site's own
 * page — `cf-ray` on every page Cloudflare serves, Imperva's cookies and injected script, Fastly's
 * `x-served-by`, DataDome's and HUMAN's sensor scripts — is not a wall: only the vendor's own
 * challenge or block page is. That is where these signatures part from wafw00f's, which name the
 * product in front of a site (test/unit/site-access/wafw00f-differential.test.ts lists each case).
 *
 * Order matters: the application-level walls (Wordfence, DataDome, HUMAN, Sucuri, Imperva, F5)
 * come before the CDNs they are often served through, so a DataDome CAPTCHA delivered by Cloudflare
 * is DataDome's.
 *
 * Several markers below are converted from wafw00f 2.2.0's plugins (cloudflare, kona, incapsula,
 * sucuri, awswaf, cloudfront, frontdoor, f5bigipasm, fastly, perimeterx, wordfence, siteground,
 * imunify360, ddosguard, modsecurity), whose licence follows:
 *
 *   Copyright (C) 2009 Wendel G. Henrique; 2014-2019 Sandro Gauci, Enable Security ltd;
 *   2022 WAFW00F Developers. All rights reserved.
 *
 *   Redistribution and use in source and binary forms, with or without modification, are permitted
 *   provided that the following conditions are met:
 *   * Redistributions of source code must retain the above copyright notice, this list of conditions
 *     and the following disclaimer.
 *   * Redistributions in binary form must reproduce the above copyright notice, this list of
 *     conditions and the following disclaimer in the documentation and/or other materials provided
 *     with the distribution.
 *   * Neither the name of the {organization} nor the names of its contributors may be used to
 *     endorse or promote products derived from this software without specific prior written
 *     permission.
 *
 *   THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR
 *   IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND
 *   FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR
 *   CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
 *   DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 *   DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY,
 *   WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY
 *   WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 */
// Types only: block.ts imports this table at run time, so a value import back would make a ring.
import type { BlockKind, ObservedResponse, VendorSignature } from './block.js';

/** What the signatures read of one response, worked out once. */
export interface ResponseView {
  status: number;
  /** A header's values joined with ", " (lower-case name), '' when absent. */
  header(name: string): string;
  has(name: string): boolean;
  /** Names of the cookies the response sets. */
  cookies: string[];
  /** The first 64 KiB of the body, HTML character references decoded (Akamai writes `Reference&#32;&#35;18&#46;…`). */
  body: string;
  /** The page's <title>, trimmed ('' when none). */
  title: string;
  /** Characters of text a person would read: scripts, styles and tags left out. */
  textLength: number;
}

const views = new WeakMap<ObservedResponse, ResponseView>();

/** A character reference's character; U+FFFD for one past Unicode's range (fromCodePoint would throw). */
const codePoint = (code: number): string => (code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd');

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d{1,7});/g, (_, code: string) => codePoint(Number(code)))
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, code: string) => codePoint(parseInt(code, 16)))
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' })[name] ?? '');
}

/** The response as the signatures read it (cached per response object). */
export function viewOf(response: ObservedResponse): ResponseView {
  const cached = views.get(response);
  if (cached) return cached;
  const headers = response.headers;
  const body = decodeEntities(response.body.slice(0, 64 * 1024));
  const text = body
    .replace(/<script\b[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const view: ResponseView = {
    status: response.status,
    header: (name) => headers[name]?.join(', ') ?? '',
    has: (name) => (headers[name]?.length ?? 0) > 0,
    cookies: (headers['set-cookie'] ?? []).map((cookie) => cookie.split('=', 1)[0]!.trim()),
    body,
    title: /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim() ?? '',
    textLength: text.length,
  };
  views.set(response, view);
  return view;
}

/** A page with next to no text: a challenge interstitial, never a site's landing page. */
export const THIN_PAGE_CHARS = 400;
const thin = (v: ResponseView) => v.textLength < THIN_PAGE_CHARS;
const refused = (v: ResponseView) => v.status === 401 || v.status === 403 || v.status === 406;
/**
 * Could this response be a wall page at all: a refusal, or a page with next to no text. A real page
 * that mentions a vendor's words (a blog post quoting "Generated by Wordfence") is neither.
 */
const wallLike = (v: ResponseView) => v.status >= 400 || thin(v);

function signature(id: string, name: string, read: (v: ResponseView) => BlockKind | null): VendorSignature {
  return { id, name, match: (response) => read(viewOf(response)) };
}

const wordfence = signature('wordfence', 'Wordfence', (v) => {
  // The block page says "Generated by Wordfence"; the plugin's scripts on a normal page (/plugins/wordfence/) do not count.
  const page = wallLike(v) && /generated by wordfence|your access to this site has been limited|broke one of (the )?wordfence (advanced )?blocking rules|a potentially unsafe operation has been detected in your request to this site/i.test(v.body);
  if (!page && !/wf[_-]?waf/i.test(v.header('server'))) return null;
  if (!page && v.status < 400) return null;
  // Wordfence's rate limiting answers 503 with the reason it throttled ("Exceeded the maximum number of requests per minute …").
  if (/exceeded the maximum (global )?(number of )?(requests|page not found errors|pages? not found)|you have been temporarily (rate limited|throttled)|rate limit/i.test(v.body)) return 'rate_limited';
  return 'block';
});

const datadome = signature('datadome', 'DataDome', (v) => {
  const page = wallLike(v) && /captcha-delivery\.com|var dd=\{/i.test(v.body);
  if (!page && !(v.has('x-dd-b') && v.status >= 400)) return null;
  // dd's 't':'bv' is the page DataDome shows a client it has banned, without a CAPTCHA to solve.
  return /'t'\s*:\s*'bv'|"t"\s*:\s*"bv"/.test(v.body) ? 'block' : 'challenge';
});

const perimeterx = signature('perimeterx', 'HUMAN (PerimeterX)', (v) => {
  // The sensor script (client.perimeterx.net, /<appId>/init.js) rides on normal pages; the block page has the captcha.
  const page =
    wallLike(v) &&
    /px-captcha|perimeterx\.(com|net)\/whywasiblocked|denied because we believe you are using automation tools|captcha\.px-cdn\.net|captcha\.px-cloud\.net/i.test(v.body) ||
    (/access to this page has been denied/i.test(v.title) && /_pxAppId|perimeterx|px-cdn|px-cloud/i.test(v.body));
  return page ? 'challenge' : null;
});

const sucuri = signature('sucuri', 'Sucuri Website Firewall', (v) => {
  const marked = v.has('x-sucuri-id') || v.has('x-sucuri-cache') || v.has('x-sucuri-block') || /sucuri/i.test(v.header('server'));
  if (wallLike(v) && /sucuri website firewall.{0,12}access denied|access denied.{0,6}sucuri website firewall|sucuri[-_]firewall[-_]block\.css|cloudproxy@sucuri\.net/i.test(v.body)) return 'block';
  if (!marked) return null;
  if (v.has('x-sucuri-block') && v.status >= 400) return 'block';
  // The JavaScript check: a script that sets sucuri_cloudproxy_js and reloads ("You are being redirected...").
  if (/sucuri_cloudproxy_js/i.test(v.body)) return 'challenge';
  if (v.status === 429) return 'rate_limited';
  return null;
});

const imperva = signature('imperva', 'Imperva (Incapsula)', (v) => {
  const marked =
    v.cookies.some((c) => /^(visid_incap|incap_ses|nlbi)_/i.test(c)) || v.has('x-iinfo') || /incapsula|imperva/i.test(v.header('x-cdn')) || /incapsula|imperva/i.test(v.body);
  if (!marked) return null;
  // Error 15 (a WAF rule) and 16 (an access rule), or the older "Request unsuccessful" page without the challenge frame.
  if (/this request was blocked by our security service|error\s*1[56]\b|powered by (incapsula|imperva)/i.test(v.body) && (v.status >= 400 || thin(v)) && !/_incapsula_resource\?cwudnsai/i.test(v.body)) return 'block';
  // The challenge: a frame on /_Incapsula_Resource?CWUDNSAI=… (CAPTCHA), or an empty page that runs Imperva's script and reloads.
  // The same script (?SWJIYLWA=…) injected into a real page is not a challenge, hence "thin".
  if (wallLike(v) && /_incapsula_resource\?cwudnsai|incapsula incident id/i.test(v.body)) return 'challenge';
  // Its JavaScript check is an empty, unindexed page around that script; an app's shell (a title, its own scripts) is not.
  if (/_incapsula_resource/i.test(v.body) && thin(v) && v.title === '' && /<meta[^>]+robots[^>]+noindex/i.test(v.body)) return 'challenge';
  if (v.status === 429) return 'rate_limited';
  return null;
});

const f5 = signature('f5-big-ip', 'F5 BIG-IP', (v) => {
  // ASM's blocking page, by default with status 200.
  if (wallLike(v) && /the requested url was rejected\. please consult with your administrator/i.test(v.body)) return 'block';
  // Bot Defense / Advanced WAF's JavaScript check: the /TSPD/ script with its own words (the script alone rides on normal pages too).
  if (/\/TSPD\/[0-9a-f]{8,}/i.test(v.body) && /please enable javascript to view the page content/i.test(v.body) && thin(v)) return 'challenge';
  return null;
});

const cloudflare = signature('cloudflare', 'Cloudflare', (v) => {
  if (/challenge/i.test(v.header('cf-mitigated'))) return 'challenge';
  const marked = /cloudflare/i.test(v.header('server')) || v.has('cf-ray');
  const ownPage = /cf_chl_opt|\/cdn-cgi\/challenge-platform\/(h\/[a-z]\/)?orchestrate\/|cf-error-details|cf-wrapper|cf-browser-verification|cloudflare ray id/i.test(v.body);
  if (!marked && !ownPage) return null;
  // 1015: "You are being rate limited" (429). The origin's own 429 passed through Cloudflare is the generic rule's, not Cloudflare's.
  if (/error(&nbsp;|\s)*1015|you are being rate limited/i.test(v.body) || (ownPage && v.status === 429)) return 'rate_limited';
  // The challenge page: "Just a moment..." with its orchestration script. The JavaScript detections script on normal
  // pages lives under the same prefix (/cdn-cgi/challenge-platform/[h/b/]scripts/jsd/), never under orchestrate/.
  if (/cf_chl_opt|\/cdn-cgi\/challenge-platform\/(h\/[a-z]\/)?orchestrate\/|cf-browser-verification/i.test(v.body) || /^(just a moment\.\.\.|checking your browser)/i.test(v.title)) return 'challenge';
  if (!ownPage) return null;
  // Cloudflare's own error pages: 1006-1020 refuse the client; 52x say the origin failed.
  if (/sorry, you have been blocked|error(&nbsp;|\s)*10(0[5-9]|1[0-2]|20)\b|access denied/i.test(v.body) || v.status === 403) return 'block';
  if (/^attention required!/i.test(v.title)) return 'challenge';
  if (v.status >= 500) return 'unavailable';
  return null;
});

const akamai = signature('akamai', 'Akamai', (v) => {
  const reference = /reference\s*#\s*\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+|errors\.edgesuite\.net/i.test(v.body);
  const marked = /akamaighost/i.test(v.header('server')) || reference;
  // Bot Manager's challenge pages (crypto challenge, behavioural challenge).
  if (/\/_sec\/cp_challenge\/|sec-if-cpt-container|sec-cpt-if/i.test(v.body)) return 'challenge';
  if (!marked) return null;
  if (v.status === 429) return 'rate_limited';
  if (v.status >= 500 && reference) return 'unavailable';
  if (reference && (v.status >= 400 || /^access denied/i.test(v.title))) return 'block';
  // AkamaiGHost answered a refusal itself (no origin page behind it).
  if (refused(v) && thin(v)) return 'block';
  return null;
});

const awsWaf = signature('aws-waf', 'AWS WAF', (v) => {
  const action = v.header('x-amzn-waf-action').toLowerCase();
  if (action === 'challenge' || action === 'captcha') return 'challenge';
  if (action === 'block') return 'block';
  // The challenge (202) and CAPTCHA (405) pages; apps also load the same SDK (*.awswaf.com) on their own pages.
  if ((v.status === 202 || v.status === 405) && /awswaf(\.com|integration)|window\.gokuProps/i.test(v.body) && thin(v)) return 'challenge';
  // CloudFront's error page when the web ACL blocked the request.
  if (/generated by cloudfront/i.test(v.body) && /request blocked/i.test(v.body)) return 'block';
  // A load balancer answers 403 itself ("Server: awselb/2.0") only for a WAF block or a fixed-response rule.
  if (/awselb/i.test(v.header('server')) && v.status === 403) return 'block';
  return null;
});

const cloudfront = signature('cloudfront', 'Amazon CloudFront', (v) => {
  const page = /generated by cloudfront|the request could not be satisfied/i.test(v.body) || /error from cloudfront/i.test(v.header('x-cache'));
  if (!page) return null;
  if (v.status === 429) return 'rate_limited';
  if (v.status >= 500) return 'unavailable';
  // Geographic restrictions ("configured to block access from your country") and other refusals at the edge.
  if (v.status >= 400) return 'block';
  return null;
});

const azureFrontDoor = signature('azure-front-door', 'Azure Front Door', (v) => {
  if (!v.has('x-azure-ref') && !v.has('x-msedge-ref')) return null;
  if (v.status === 429) return 'rate_limited';
  // The WAF's default block response ("The request is blocked.") and its JavaScript challenge.
  if (/the request is blocked\./i.test(v.body) && v.status >= 400) return 'block';
  if (v.status >= 400 && /azure front door.{0,40}challenge|waf\/js-challenge/i.test(v.body) && thin(v)) return 'challenge';
  if (v.status === 403 && thin(v)) return 'block';
  if (/our services aren'?t available right now/i.test(v.body)) return 'unavailable';
  return null;
});

const fastly = signature('fastly', 'Fastly', (v) => {
  const marked = v.has('x-fastly-request-id') || /^cache-[a-z0-9-]+/i.test(v.header('x-served-by')) || /fastly/i.test(v.header('server'));
  if (/fastly error: unknown domain/i.test(v.body)) return 'unavailable';
  if (!marked) return null;
  if (v.status === 429) return 'rate_limited';
  // Next-Gen WAF (Signal Sciences) blocks with 406 by default; a 403 counts only when the page says Fastly sent it.
  if (v.status === 406 && thin(v)) return 'block';
  if (v.status === 403 && /fastly|request blocked|varnish cache server/i.test(v.body) && thin(v)) return 'block';
  return null;
});

const siteground = signature('siteground', 'SiteGround', (v) => {
  if (!wallLike(v)) return null;
  if (/\/\.well-known\/sgcaptcha|our system thinks you might be a robot/i.test(v.body)) return 'challenge';
  if (/access is restricted due to a security rule/i.test(v.body)) return 'block';
  return null;
});

const ONE_MOMENT = (v: ResponseView) => /^one moment, please/i.test(v.title) && /request is being verified|checking your browser|enable javascript/i.test(v.body);

const imunify360 = signature('imunify360', 'Imunify360', (v) => {
  const marked = /imunify360/i.test(v.header('server')) || /imunify360/i.test(v.body);
  if (wallLike(v) && /access denied by imunify360/i.test(v.body)) return 'block';
  if (!marked) return null;
  if (ONE_MOMENT(v) || /imunify360.preloader|protected.by.{0,10}imunify360/i.test(v.body)) return v.status === 403 || v.status === 415 ? 'block' : 'challenge';
  if (v.status === 429) return 'rate_limited';
  return null;
});

const ddosGuard = signature('ddos-guard', 'DDoS-Guard', (v) => {
  const marked = /ddos-guard/i.test(v.header('server')) || v.cookies.some((c) => /^__ddg/i.test(c));
  if (/^ddos-guard$/i.test(v.title) || (v.status >= 400 && /check\.ddos-guard\.net|ddos-guard\.net\/.{0,40}(js-challenge|check)/i.test(v.body))) return 'challenge';
  if (!marked) return null;
  // Its own pages name it; the origin's 403 passed through it does not.
  if (!/ddos-guard/i.test(v.body)) return null;
  if (v.status === 429) return 'rate_limited';
  if (refused(v)) return 'block';
  return null;
});

const modsecurity = signature('modsecurity', 'ModSecurity', (v) => {
  // The Apache module shared hosts run: its own error text, on a refusal (the server's mark alone on a page is not one).
  const page = /this error was generated by mod.?security|rules of the mod.security.module|mod.security.rules triggered|\/modsecurity[-_]errorpage\//i.test(v.body);
  const marked = page || /mod_security|noyb/i.test(v.header('server'));
  return marked && v.status >= 400 && v.status < 500 && (page || thin(v)) ? 'block' : null;
});

/** The same "One moment, please..." check without a product's name on it: a host's own bot wall. Named so sentences read "… from your host". */
const hosting = signature('hosting', 'your host', (v) => (ONE_MOMENT(v) ? 'challenge' : null));

/** Every vendor the scanner names, in the order they are asked (the first that claims the response wins). */
export const VENDOR_SIGNATURES: readonly VendorSignature[] = [
  wordfence,
  datadome,
  perimeterx,
  sucuri,
  imperva,
  f5,
  siteground,
  imunify360,
  ddosGuard,
  cloudflare,
  akamai,
  awsWaf,
  cloudfront,
  azureFrontDoor,
  fastly,
  modsecurity,
  hosting,
];

import { paths } from '../../config/paths';

/**
 * Where to go after signing in: the `returnUrl` the guard or checkout sent, if it is a path on this
 * site. Anything else (another origin, `//host`, `/\host`, a scheme) goes to the dashboard — an
 * open redirect on a login page is a phishing tool.
 */
export function safeReturnUrl(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return paths.dashboard.root.getHref();
  try {
    const url = new URL(value, 'https://site.invalid');
    if (url.origin !== 'https://site.invalid') return paths.dashboard.root.getHref();
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return paths.dashboard.root.getHref();
  }
}

/**
 * What WordPress's own files look like when they answer: xmlrpc.php to a GET, a PHP debug log,
 * the uploads folder listed. Pure functions of a body, so a themed 404 page sent with status 200
 * is never mistaken for one of them.
 */

/** xmlrpc.php answers a GET with this sentence (405 on current releases, 200 on old ones): it is on and takes POSTs. */
export const XMLRPC_GET_ANSWER = 'XML-RPC server accepts POST requests only.';

/** True when the body is xmlrpc.php's answer to a GET (so XML-RPC is on). */
export function isXmlRpcAnswer(body: string): boolean {
  return body.includes(XMLRPC_GET_ANSWER);
}

/** A PHP error log entry: `[22-Nov-2026 12:53:38 UTC] PHP Warning:  Undefined variable …`. */
const LOG_ENTRY = /^\[\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}:\d{2}(?: [\w/+-]+)?\] (PHP (?:Notice|Warning|Fatal error|Deprecated|Parse error|Stack trace|Catchable fatal error|Recoverable fatal error)|WordPress database error)/;
const BARE_ENTRY = /^(PHP (?:Notice|Warning|Fatal error|Deprecated|Parse error)):\s/;

/** What a readable debug.log showed. */
export interface DebugLog {
  /** Log entries in the part read. */
  entries: number;
  /** The first entry, cut short: enough to show what leaks (paths, queries), no more. */
  first: string;
}

/** Reads a body as WordPress's wp-content/debug.log (WP_DEBUG_LOG): null unless it holds PHP log entries. */
export function debugLog(body: string): DebugLog | null {
  if (body.trimStart().startsWith('<')) return null;
  const lines = body.split(/\r?\n/);
  const entries = lines.filter((line) => LOG_ENTRY.test(line) || BARE_ENTRY.test(line));
  if (entries.length === 0) return null;
  const first = entries[0]!.trim();
  return { entries: entries.length, first: first.length > 160 ? `${first.slice(0, 160)}…` : first };
}

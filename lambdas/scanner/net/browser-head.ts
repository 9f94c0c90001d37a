/**
 * Response heads read as a browser reads them. Node's parser (llhttp), even with
 * `insecureHTTPParser`, refuses some heads that Chromium and curl load without a word: a space
 * before the colon, a header name with a character outside the token set, a line without a colon,
 * a bare CR, `Content-Length` sent twice with the same value. The scanner must see the page a
 * visitor sees, so each response head is rewritten the way Chromium's header parser reads it
 * (net/http/http_util.cc) before llhttp gets it; the body is passed through untouched.
 *
 * Only for the scanner's own requests (a client reading one response per fresh socket): there is
 * no second request on the connection for a desync to reach. Our servers keep Node's strict parser.
 */
import { Duplex } from 'node:stream';

/** A head that has not ended by now is passed on as it is (llhttp refuses it at 16 KiB anyway). */
const MAX_HEAD_BYTES = 64 * 1024;

const HTTP_PREFIX = Buffer.from('HTTP/');

/** RFC 9110 tchar: what a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface RewrittenHead {
  bytes: Buffer;
  /** The status code, when the head starts with an HTTP status line. */
  status?: number;
}

/**
 * One response head (status line to the blank line, inclusive) with every header line as Chromium
 * keeps it, ended by CRLF:
 * - a bare CR inside a line becomes a space (RFC 9112 §2.2);
 * - an obs-fold continuation joins the line before it with a space (RFC 9112 §5.2);
 * - spaces and tabs around the name are trimmed; a line without a colon, with an empty name or a
 *   name that is not a token is dropped (the rest of the response still counts);
 * - `Content-Length` repeated (or listed) with one value is sent once; differing values are left
 *   for llhttp to refuse, as Chromium refuses them (ERR_RESPONSE_HEADERS_MULTIPLE_CONTENT_LENGTH).
 * A head that does not start with `HTTP/` is returned as it came.
 */
export function rewriteResponseHead(head: Buffer): RewrittenHead {
  const text = head.toString('latin1');
  if (!text.startsWith('HTTP/')) return { bytes: head };
  const [statusLine = '', ...lines] = text
    .split('\n')
    .map((line) => line.replace(/\r$/, '').replace(/\r/g, ' '));
  const headers: { name: string; value: string }[] = [];
  let lastKept = false;
  for (const line of lines) {
    if (line === '') continue;
    if (line[0] === ' ' || line[0] === '\t') {
      const previous = headers.at(-1);
      if (lastKept && previous) previous.value = `${previous.value} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).replace(/[ \t]+$/, '') : '';
    lastKept = TOKEN.test(name);
    if (lastKept) headers.push({ name, value: line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '') });
  }
  const status = /^HTTP\/\S+[ \t]+(\d{3})/.exec(statusLine)?.[1];
  const kept = oneContentLength(headers);
  const rebuilt = [statusLine, ...kept.map(({ name, value }) => `${name}: ${value}`), '', ''].join('\r\n');
  return { bytes: Buffer.from(rebuilt, 'latin1'), ...(status ? { status: Number(status) } : {}) };
}

function oneContentLength(headers: { name: string; value: string }[]): { name: string; value: string }[] {
  const isLength = (name: string) => name.toLowerCase() === 'content-length';
  const values = headers.filter((h) => isLength(h.name)).flatMap((h) => h.value.split(',').map((v) => v.trim()));
  if (values.length < 2 || !/^\d+$/.test(values[0]!) || values.some((v) => v !== values[0])) return headers;
  const first = headers.findIndex((h) => isLength(h.name));
  return headers.flatMap((h, i) => (i === first ? [{ name: h.name, value: values[0]! }] : isLength(h.name) ? [] : [h]));
}

/** Where the head in `data` ends (after its blank line: LF LF or LF CR LF), or -1. */
function headEnd(data: Buffer): number {
  for (let i = data.indexOf(0x0a); i !== -1; i = data.indexOf(0x0a, i + 1)) {
    if (data[i + 1] === 0x0a) return i + 2;
    if (data[i + 1] === 0x0d && data[i + 2] === 0x0a) return i + 3;
  }
  return -1;
}

/**
 * The socket as the HTTP client should read it: each response head rewritten by
 * `rewriteResponseHead` (interim 1xx heads too, up to the final one), everything after it as it came.
 * Writes, ends and destroys go to the socket.
 */
export function readAsBrowser(socket: Duplex): Duplex {
  let pending: Buffer | undefined = Buffer.alloc(0);

  const rewrite = (chunk: Buffer): Buffer => {
    if (!pending) return chunk;
    let data = Buffer.concat([pending, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      // Not HTTP (a banner, TLS on a plain port): llhttp says so at once, without waiting for a blank line.
      if (!data.subarray(0, HTTP_PREFIX.length).equals(HTTP_PREFIX.subarray(0, Math.min(data.length, HTTP_PREFIX.length)))) {
        pending = undefined;
        out.push(data);
        return Buffer.concat(out);
      }
      const end = headEnd(data);
      if (end === -1) {
        if (data.length > MAX_HEAD_BYTES) {
          pending = undefined;
          out.push(data);
        } else {
          pending = data;
        }
        return Buffer.concat(out);
      }
      const head = rewriteResponseHead(data.subarray(0, end));
      out.push(head.bytes);
      data = data.subarray(end);
      // 101 hands the connection to another protocol; any other 1xx is followed by the real head.
      if (head.status === undefined || head.status < 100 || head.status > 199 || head.status === 101) {
        pending = undefined;
        out.push(data);
        return Buffer.concat(out);
      }
    }
  };

  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, encoding, callback) {
      socket.write(chunk, encoding, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(error, callback) {
      socket.destroy(error ?? undefined);
      callback(error);
    },
  });
  socket.on('data', (chunk: Buffer) => {
    const bytes = rewrite(chunk);
    if (bytes.length > 0 && !stream.push(bytes)) socket.pause();
  });
  let ended = false;
  socket.on('end', () => {
    if (pending && pending.length > 0) stream.push(pending);
    pending = undefined;
    ended = true;
    stream.push(null);
  });
  socket.on('error', (error) => stream.destroy(error));
  // After an end the reader still has to drain what was pushed; a close without one is a cut connection.
  socket.on('close', () => {
    if (!ended) stream.destroy();
  });
  return stream;
}

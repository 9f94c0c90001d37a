import http from 'node:http';

/**
 * Requests exactly as written: the path is sent as given (odd percent-encodings included, which
 * fetch would normalise or refuse), the body as the given bytes, with any content type.
 */
export interface RawRequest {
  method: string;
  /** Already encoded; bytes above 0x7f are sent as latin1, as a careless client would. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        agent,
        host: hostname,
        port,
        method: request.method,
        path: request.path,
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Lets the test process exit: the keep-alive sockets are closed. */
export function closeRawAgent(): void {
  agent.destroy();
}

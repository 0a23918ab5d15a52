import http from 'node:http';

/** A request exactly as it goes on the wire (node:http sends what fetch would refuse to). */
export interface RawRequest {
  method: string;
  /** Path and query, sent as the request-target unchanged. */
  target: string;
  /** In order, duplicates allowed, names as written. */
  headers: readonly (readonly [string, string])[];
  body?: Uint8Array | undefined;
  /** Send the body in two chunks with `Transfer-Encoding: chunked`, instead of with its `Content-Length`. */
  chunked?: boolean | undefined;
  /** The loopback address the request comes from (`127.0.0.1` to `127.0.0.254`). */
  from: string;
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

class ReusedSocketClosed extends Error {}

/**
 * An HTTP/1.1 client for a server on loopback that can send from any 127.0.0.x address, so that a
 * test can play many clients (the server sees each address as another `context.ip`). Keeps one
 * keep-alive agent per source address.
 */
export class LoopbackClient {
  readonly #url: URL;
  readonly #agents = new Map<string, http.Agent>();

  constructor(origin: string) {
    this.#url = new URL(origin);
  }

  /**
   * Sends a request and reads the whole answer. When a kept-alive connection turns out to have
   * been closed by the server (as idle, just as the request went out), the request is sent once
   * more on a new one, as Node's documentation advises (`request.reusedSocket`).
   */
  async send(request: RawRequest, timeoutMs: number): Promise<RawAnswer> {
    try {
      return await this.#sendOnce(request, timeoutMs);
    } catch (error) {
      if (!(error instanceof ReusedSocketClosed)) throw error;
      return this.#sendOnce(request, timeoutMs);
    }
  }

  #sendOnce(request: RawRequest, timeoutMs: number): Promise<RawAnswer> {
    let agent = this.#agents.get(request.from);
    if (!agent) {
      agent = new http.Agent({ keepAlive: true, localAddress: request.from });
      this.#agents.set(request.from, agent);
    }
    const headers: string[] = request.headers.flat();
    // Given as a list, headers go out as written and Node adds no Host of its own.
    if (!request.headers.some(([name]) => name.toLowerCase() === 'host')) headers.unshift('Host', this.#url.host);
    // Nor framing: the body's length, or chunks, unless the caller wrote its own Content-Length.
    const body = request.body && request.body.byteLength > 0 ? request.body : undefined;
    if (body && request.chunked) headers.push('Transfer-Encoding', 'chunked');
    else if (body && !request.headers.some(([name]) => name.toLowerCase() === 'content-length')) {
      headers.push('Content-Length', String(body.byteLength));
    }
    return new Promise<RawAnswer>((resolve, reject) => {
      const outgoing = http.request(
        {
          host: this.#url.hostname,
          port: this.#url.port,
          method: request.method,
          path: request.target,
          headers,
          agent,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const answerHeaders = new Headers();
            for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
              answerHeaders.append(incoming.rawHeaders[i] as string, incoming.rawHeaders[i + 1] as string);
            }
            resolve({ status: incoming.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks) });
          });
        },
      );
      outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const closedUnderUs =
          outgoing.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up');
        reject(closedUnderUs ? new ReusedSocketClosed(error.message) : error);
      });
      if (body && request.chunked && body.byteLength > 1) {
        const middle = Math.floor(body.byteLength / 2);
        outgoing.write(body.subarray(0, middle));
        outgoing.end(body.subarray(middle));
      } else {
        outgoing.end(body);
      }
    });
  }

  close(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}

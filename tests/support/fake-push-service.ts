import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptPush, type TestSubscriber, type VapidCheck, verifyVapid } from './push-receiver.ts';

/** One push as the service received it: path, headers and the encrypted body. */
export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A push service on loopback, as Mozilla's or Google's answer RFC 8030 §5: 201 to a push it takes,
 * or whatever status a test sets per subscription path (410 for one the browser dropped, 500,
 * or `hang` to never answer). Each subscription is `<url>/push/<name>`.
 */
export interface FakePushService {
  url: string;
  origin: string;
  received: ReceivedPush[];
  /** The answer for pushes to this subscription path from now on. */
  answer(path: string, status: number | 'hang'): void;
  /** An endpoint on this service for a named subscription. */
  endpoint(name: string): string;
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const answers = new Map<string, number | 'hang'>();
  const received: ReceivedPush[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
    const status = answers.get(path) ?? 201;
    if (status === 'hang') return;
    res.writeHead(status, status === 201 ? { Location: `${path}/message/${received.length}` } : {}).end();
  });
  await once(server.listen(0, '127.0.0.1'), 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    origin: url,
    received,
    answer: (path, status) => void answers.set(path, status),
    endpoint: (name) => `${url}/push/${name}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A received push opened as the browser would: the decrypted JSON and the checked VAPID token. */
export function openPush(push: ReceivedPush, subscriber: TestSubscriber): { payload: unknown; vapid: VapidCheck } {
  if (push.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
  return {
    payload: JSON.parse(decryptPush(push.body, subscriber)),
    vapid: verifyVapid(push.headers.authorization),
  };
}

import type http from 'node:http';
import { isIP } from 'node:net';
import { getConfig } from '../src/platform/config.ts';

/**
 * The client address the local runtime hands functions as `context.ip` (on Netlify the platform
 * sets it). With `TRUST_PROXY=0` (the default) it is the socket's peer and `X-Forwarded-For` is
 * ignored: anyone can send that header, so trusting it would let a client pick its own identity
 * and step past every per-client limit. Behind N reverse proxies that each append the address
 * they saw, the N-th entry from the right is the one the outermost trusted proxy wrote.
 */
export function clientAddress(req: http.IncomingMessage): string {
  return clientAddressOf(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], getConfig().TRUST_PROXY);
}

/** The pure rule behind `clientAddress`. */
export function clientAddressOf(socketAddress: string, forwardedFor: string | string[] | undefined, trust: number) {
  const peer = socketAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (trust === 0 || forwardedFor === undefined) return peer;
  // Several X-Forwarded-For lines are one list in order (RFC 9110 §5.3).
  const entries = [forwardedFor]
    .flat()
    .join(',')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return peer;
  // Fewer entries than trusted proxies: the leftmost is the farthest address anyone vouches for.
  const chosen = addressOf(entries[Math.max(entries.length - trust, 0)] ?? '');
  return chosen ?? peer;
}

/** An entry without a port or brackets (`[2001:db8::1]:443`, `192.0.2.1:8080`), or null when it is no address. */
function addressOf(entry: string): string | null {
  if (isIP(entry)) return entry;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed?.[1] && isIP(bracketed[1])) return bracketed[1];
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(entry);
  if (withPort?.[1] && isIP(withPort[1])) return withPort[1];
  return null;
}

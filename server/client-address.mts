import { isIP } from 'node:net';

/**
 * The client address functions get as `context.ip` (on Netlify the platform sets it). With
 * `TRUST_PROXY=0` it is the socket's peer: anyone can send `X-Forwarded-For`, and trusting it would
 * let a client pick its identity and step past every per-client limit. Behind N proxies that each
 * append the address they saw, it is the N-th entry from the right.
 */
export function clientAddressOf(socketAddress: string, forwardedFor: string | string[] | undefined, trust: number) {
  const peer = socketAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (trust === 0 || forwardedFor === undefined) return peer;
  // Several lines are one list (RFC 9110 §5.3), as String() joins them; fewer entries than proxies: the leftmost.
  const entries = String(forwardedFor).match(/[^\s,]+/g) ?? [];
  const chosen = entries[Math.max(entries.length - trust, 0)] ?? '';
  // Without the port or brackets: `[2001:db8::1]:443`, `192.0.2.1:8080`.
  const address =
    /^\[([^\]]+)\](?::\d+)?$/.exec(chosen)?.[1] ?? /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(chosen)?.[1] ?? chosen;
  return isIP(address) ? address : peer;
}

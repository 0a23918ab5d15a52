import { isIPv4, isIPv6 } from 'node:net';

/**
 * Who a client is, for every per-client limit: an IPv4 address (IPv4-mapped IPv6 too), or the /64 of
 * an IPv6 address, since one subscriber can pick any address in its /64 at will (RFC 6177, RFC 8981).
 */
export function clientIdentity(address: string): string {
  const ip = address.trim().replace(/^\[(.*)\]$/, '$1');
  if (isIPv4(ip)) return ip;
  // A zone (`fe80::1%eth0`) names the local interface, not the client.
  const withoutZone = ip.replace(/%.*$/, '');
  if (!isIPv6(withoutZone)) return ip === '' ? 'unknown' : `other:${ip.toLowerCase()}`;
  const groups = ipv6Groups(withoutZone);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const network = groups.slice(0, 4).map((group) => group.toString(16));
  return `${network.join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (the URL parser writes a dotted IPv4 tail in hex). */
function ipv6Groups(ip: string): number[] {
  const [head = '', tail] = new URL(`http://[${ip}]/`).hostname.slice(1, -1).split('::');
  const parse = (part = '') => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const [left, right] = [parse(head), parse(tail)];
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

import { describe, expect, it } from 'vitest';
import { clientAddressOf } from '../../../server/client-address.mts';
import { clientIdentity } from '../../../src/platform/client-identity.ts';
import { loadConfig } from '../../../src/platform/config.ts';

describe('who a client is, for every per-client limit', () => {
  it.each([
    ['an IPv4 address', '203.0.113.7', '203.0.113.7'],
    ['an IPv4-mapped IPv6 address', '::ffff:203.0.113.7', '203.0.113.7'],
    ['an IPv4-mapped IPv6 address in hex', '::ffff:cb00:7107', '203.0.113.7'],
    ['an IPv4-mapped IPv6 address, expanded and in capitals', '0:0:0:0:0:FFFF:203.0.113.7', '203.0.113.7'],
    ['a full IPv6 address', '2001:0db8:0001:0002:0003:0004:0005:0006', '2001:db8:1:2::/64'],
    ['a compressed IPv6 address', '2001:db8:1:2::7', '2001:db8:1:2::/64'],
    ['another address in the same /64', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['the same /64 in capitals', '2001:DB8:1:2::ABCD', '2001:db8:1:2::/64'],
    ['the next /64', '2001:db8:1:3::7', '2001:db8:1:3::/64'],
    ['an address compressed inside the /64', '2001:db8::1', '2001:db8:0:0::/64'],
    ['an address with a zone', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['a bracketed address', '[2001:db8:1:2::7]', '2001:db8:1:2::/64'],
    ['the IPv6 loopback address', '::1', '0:0:0:0::/64'],
    ['an IPv6 address ending in dotted IPv4 (not mapped)', '64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
    ['no address at all', '', 'unknown'],
    ['something that is no address', 'not-an-ip', 'other:not-an-ip'],
  ])('counts %s (%s) as client %s', (_case, address, client) => {
    expect(clientIdentity(address)).toBe(client);
  });
});

describe('the client address behind TRUST_PROXY reverse proxies', () => {
  it.each([
    ['no proxy trusted: the socket, whatever the header says', '198.51.100.9', '203.0.113.1', 0, '198.51.100.9'],
    ['no proxy trusted, an IPv4-mapped socket address', '::ffff:198.51.100.9', '203.0.113.1', 0, '198.51.100.9'],
    ['one proxy: the entry it appended', '10.0.0.2', '203.0.113.1', 1, '203.0.113.1'],
    ['one proxy: a client-sent entry before it is ignored', '10.0.0.2', '6.6.6.6, 203.0.113.1', 1, '203.0.113.1'],
    ['two proxies: the second entry from the right', '10.0.0.2', '6.6.6.6, 203.0.113.1, 10.0.0.1', 2, '203.0.113.1'],
    ['more proxies trusted than entries: the leftmost', '10.0.0.2', '203.0.113.1', 3, '203.0.113.1'],
    ['several header lines are one list', '10.0.0.2', ['6.6.6.6', '203.0.113.1'], 1, '203.0.113.1'],
    ['an entry with a port', '10.0.0.2', '203.0.113.1:51000', 1, '203.0.113.1'],
    ['a bracketed IPv6 entry with a port', '10.0.0.2', '[2001:db8::7]:443', 1, '2001:db8::7'],
    ['an entry that is no address: the socket', '10.0.0.2', 'unknown', 1, '10.0.0.2'],
    ['no header behind a trusted proxy: the socket', '10.0.0.2', undefined, 1, '10.0.0.2'],
  ])('%s', (_case, socket, forwardedFor, trust, client) => {
    expect(clientAddressOf(socket, forwardedFor, trust)).toBe(client);
  });

  it('reads TRUST_PROXY as a number of proxies, 0 when unset', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
  });

  it.each(['-1', 'yes', '1.5', 'true', '100'])('refuses TRUST_PROXY=%s at start, naming the variable', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

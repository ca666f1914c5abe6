// Which address a request counts against, for every shape of X-Forwarded-For.
import { describe, expect, it } from 'vitest';
import { addressResolver, trustList } from '../../proxy/rateLimit/clientAddress.ts';

describe('addressResolver', () => {
  const trusting = addressResolver(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);

  it.each([
    ['127.0.0.1', '203.0.113.5', '203.0.113.5'],
    ['::ffff:127.0.0.1', '203.0.113.5', '203.0.113.5'],
    ['127.0.0.1', '198.51.100.1, 203.0.113.5', '203.0.113.5'],
    ['127.0.0.1', '203.0.113.5, 10.0.0.2, 10.9.9.9', '203.0.113.5'],
    ['127.0.0.1', '10.0.0.2', '10.0.0.2'],
    ['127.0.0.1', 'garbage, 10.0.0.2', '10.0.0.2'],
    ['127.0.0.1', '203.0.113.5, garbage', '127.0.0.1'],
    ['fd00::1', '2001:db8::7', '2001:db8::/64'],
    ['192.0.2.9', '203.0.113.5', '192.0.2.9'],
    ['127.0.0.1', undefined, '127.0.0.1'],
  ])('from %s with X-Forwarded-For %s counts as %s', (socket, forwarded, expected) => {
    expect(trusting(socket, forwarded)).toBe(expected);
  });

  it('tells peers apart when they take turns on one resolver', () => {
    // The resolver remembers the last peer it spelled; a peer after another must not be taken for it.
    const answers = ['127.0.0.1', '192.0.2.9', '192.0.2.9', '127.0.0.1'].map((peer) => trusting(peer, '203.0.113.5'));
    expect(answers).toEqual(['203.0.113.5', '192.0.2.9', '192.0.2.9', '203.0.113.5']);
  });

  it('ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(addressResolver([])('::ffff:192.0.2.1', '203.0.113.5')).toBe('192.0.2.1');
  });

  it('counts every spelling of one address as one client, and IPv6 by its /64', () => {
    const spellings = {
      '203.0.113.5': ['203.0.113.5', '::ffff:203.0.113.5', '::FFFF:CB00:7105', '0:0:0:0:0:ffff:cb00:7105'],
      '2001:db8:1:2::/64': ['2001:db8:1:2::7', '2001:DB8:1:2::7', '2001:0db8:0001:0002:0000:0000:0000:0007', '2001:db8:1:2:ffff:1:2:3', '2001:db8:1:2::7%eth0'],
    };
    for (const [client, written] of Object.entries(spellings)) {
      for (const address of written) {
        expect(trusting('127.0.0.1', address), address).toBe(client);
        expect(trusting('127.0.0.1', `198.51.100.1, ${address}`), address).toBe(client);
      }
    }
    // Another /64 is another client; the socket's own peer is counted the same way.
    expect(trusting('127.0.0.1', '2001:db8:1:3::7')).toBe('2001:db8:1:3::/64');
    expect(addressResolver([])('2001:DB8:1:2::9', undefined)).toBe('2001:db8:1:2::/64');
  });

  it('counts IPv6 by the prefix the operator chooses', () => {
    expect(addressResolver(['127.0.0.1'], 48)('127.0.0.1', '2001:db8:1:2::7')).toBe('2001:db8:1::/48');
    expect(addressResolver(['127.0.0.1'], 128)('127.0.0.1', '2001:DB8:1:2::7')).toBe('2001:db8:1:2::7');
  });

  it.each(['10.0.0.0/33', 'example.org', '10.0.0.1/', '10.0.0.0/8/1', '::1/129'])('refuses the trust entry %s', (entry) => {
    expect(() => trustList([entry])).toThrow(/--trust-proxy/);
  });
});

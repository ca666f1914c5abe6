// Which address a request counts against, for every shape of X-Forwarded-For, and what a client is: an IPv6 line
// by the /56 a customer holds, an address that carries an IPv4 address by that address.
import { describe, expect, it } from 'vitest';
import { SERVE_DEFAULTS } from '../../core/options.ts';
import { addressResolver, peerBucket, trustList } from '../../proxy/rateLimit/clientAddress.ts';

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
    ['fd00::1', '2001:db8::7', '2001:db8::/56'],
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

  it('counts every spelling of one address as one client, and IPv6 by its /56', () => {
    const spellings = {
      '203.0.113.5': ['203.0.113.5', '::ffff:203.0.113.5', '::FFFF:CB00:7105', '0:0:0:0:0:ffff:cb00:7105'],
      '2001:db8:1:200::/56': ['2001:db8:1:2ff::7', '2001:DB8:1:200::7', '2001:0db8:0001:0202:0000:0000:0000:0007', '2001:db8:1:2ab:ffff:1:2:3', '2001:db8:1:2ff::7%eth0'],
    };
    for (const [client, written] of Object.entries(spellings)) {
      for (const address of written) {
        expect(trusting('127.0.0.1', address), address).toBe(client);
        expect(trusting('127.0.0.1', `198.51.100.1, ${address}`), address).toBe(client);
      }
    }
    // Another /56 is another client; the socket's own peer is counted the same way.
    expect(trusting('127.0.0.1', '2001:db8:1:300::7')).toBe('2001:db8:1:300::/56');
    expect(addressResolver([])('2001:DB8:1:2::9', undefined)).toBe('2001:db8:1::/56');
  });

  it('counts three /64s of one /56 as one client, for the rate limit and the connection cap alike', () => {
    // A customer line is a /56 (RFC 6177): its /64s are the customer's own networks, one per room or device.
    const line = ['2001:db8:77:4a00::1', '2001:db8:77:4a01::2', '2001:db8:77:4aff:1:2:3:4'];
    const byPeer = peerBucket(SERVE_DEFAULTS.ipv6Prefix);
    expect(new Set(line.map((a) => trusting('127.0.0.1', a)))).toEqual(new Set(['2001:db8:77:4a00::/56']));
    expect(new Set(line.map((a) => addressResolver([])(a, undefined)))).toEqual(new Set(['2001:db8:77:4a00::/56']));
    expect(new Set(line.map(byPeer))).toEqual(new Set(['2001:db8:77:4a00::/56']));
    // The next /56 is another customer.
    expect(byPeer('2001:db8:77:4b00::1')).toBe('2001:db8:77:4b00::/56');
  });

  it.each([
    ['6to4 (2002::/16), the IPv4 address in bits 16 to 47', ['2002:cb00:7105::1', '2002:cb00:7105:1::1', '2002:cb00:7105:ff00:1:2:3:4', '2002:CB00:7105:4a01::9']],
    ['Teredo (2001::/32), the client\'s address inverted in the last 32 bits', ['2001:0:4136:e378:8000:63bf:34ff:8efa', '2001:0:4137:9e76:0:f227:34ff:8efa']],
    ['NAT64 (64:ff9b::/96)', ['64:ff9b::cb00:7105', '64:ff9b::203.0.113.5']],
    ['IPv4-mapped (::ffff:0:0/96)', ['::ffff:203.0.113.5', '::ffff:cb00:7105']],
    ['IPv4-translated (::ffff:0:0:0/96, RFC 6145)', ['::ffff:0:cb00:7105']],
    ['IPv4-compatible (::/96)', ['::203.0.113.5', '::cb00:7105']],
  ])('counts %s by the IPv4 address it carries', (_form, addresses) => {
    const client = '203.0.113.5';
    const byPeer = peerBucket(SERVE_DEFAULTS.ipv6Prefix);
    for (const address of addresses) {
      expect(trusting('127.0.0.1', address), address).toBe(client);
      expect(byPeer(address), address).toBe(client);
      // Whatever prefix the operator chose: the IPv4 address is the client.
      expect(addressResolver(['127.0.0.1'], 128)('127.0.0.1', address), address).toBe(client);
    }
  });

  it('counts the addresses next to the embedded forms by their prefix, as any other', () => {
    // The loopback and unspecified addresses carry no IPv4 address; 64:ff9b:1::/48 (RFC 8215) embeds it where the
    // operator's translator chooses, so it is counted by its prefix; 2001:db8::/32 is not Teredo's 2001::/32.
    expect(trusting('127.0.0.1', '::1')).toBe('::/56');
    expect(trusting('127.0.0.1', '64:ff9b:1::cb00:7105')).toBe('64:ff9b:1::/56');
    expect(trusting('127.0.0.1', '2001:db8:0:0:8000:63bf:34ff:8efa')).toBe('2001:db8::/56');
  });

  it('counts IPv6 by the prefix the operator chooses', () => {
    expect(addressResolver(['127.0.0.1'], 48)('127.0.0.1', '2001:db8:1:2::7')).toBe('2001:db8:1::/48');
    expect(addressResolver(['127.0.0.1'], 64)('127.0.0.1', '2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(addressResolver(['127.0.0.1'], 128)('127.0.0.1', '2001:DB8:1:2::7')).toBe('2001:db8:1:2::7');
  });

  it.each(['10.0.0.0/33', 'example.org', '10.0.0.1/', '10.0.0.0/8/1', '::1/129'])('refuses the trust entry %s', (entry) => {
    expect(() => trustList([entry])).toThrow(/--trust-proxy/);
  });
});

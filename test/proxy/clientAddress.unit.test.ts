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
    ['fd00::1', '2001:db8::7', '2001:db8::7'],
    ['192.0.2.9', '203.0.113.5', '192.0.2.9'],
    ['127.0.0.1', undefined, '127.0.0.1'],
  ])('from %s with X-Forwarded-For %s counts as %s', (socket, forwarded, expected) => {
    expect(trusting(socket, forwarded)).toBe(expected);
  });

  it('ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(addressResolver([])('::ffff:192.0.2.1', '203.0.113.5')).toBe('192.0.2.1');
  });

  it.each(['10.0.0.0/33', 'example.org', '10.0.0.1/', '10.0.0.0/8/1', '::1/129'])('refuses the trust entry %s', (entry) => {
    expect(() => trustList([entry])).toThrow(/--trust-proxy/);
  });
});

// The address a request counts against for rate limiting. X-Forwarded-For is written by whoever sends the
// request, so it is believed only as far as it was appended by proxies the operator trusts: walking the list
// from the right, every trusted hop is skipped and the first untrusted address is the client. What is counted is
// the client's bucket: its address in its one spelling, an IPv6 client by its prefix (canonicalAddress.ts).
import { BlockList, isIP } from 'node:net';
import { SERVE_DEFAULTS } from '../../core/options.ts';
import { addressBucket, canonicalAddress } from './canonicalAddress.ts';

export type AddressResolver = (socketAddress: string | undefined, forwardedFor: string | undefined) => string;

/**
 * `trusted`: IP addresses and CIDR ranges (IPv4 or IPv6) of the reverse proxies in front of this one;
 * `ipv6Prefix`: the bits of an IPv6 address that name one client.
 */
export function addressResolver(trusted: string[], ipv6Prefix = SERVE_DEFAULTS.ipv6Prefix): AddressResolver {
  const bucket = peerBucket(ipv6Prefix);
  if (trusted.length === 0) return (socketAddress) => bucket(socketAddress ?? '');
  const isTrusted = trustChecker(trusted);
  const peerOf = lastAnswered(plain);
  return (socketAddress, forwardedFor) => addressBucket(forwardedClient(peerOf(socketAddress ?? ''), forwardedFor, isTrusted), ipv6Prefix);
}

/**
 * `f` answering again at once when asked what it was asked last. Behind a reverse proxy nearly every request
 * comes from the same peer, whose address would otherwise be checked and spelled anew each time.
 */
function lastAnswered(f: (address: string) => string): (address: string) => string {
  let asked: string | undefined;
  let answer = '';
  return (address) => {
    if (address !== asked) {
      answer = f(address);
      asked = address;
    }
    return answer;
  };
}

/** The bucket a socket's peer counts in, by its address alone. */
export function peerBucket(ipv6Prefix: number): (peer: string) => string {
  return (peer) => addressBucket(plain(peer), ipv6Prefix);
}

/** Whether a socket's peer is one of `trusted`. */
export function trustedPeer(trusted: string[]): (peer: string) => boolean {
  const isTrusted = trustChecker(trusted);
  return (peer) => isTrusted(plain(peer));
}

/** Whether a canonical address is one of `trusted` (addresses and CIDR ranges). */
function trustChecker(trusted: string[]): (address: string) => boolean {
  if (trusted.length === 0) return () => false;
  const list = trustList(trusted);
  // BlockList.check builds a SocketAddress per call (about 5 µs, twice a request, a fifth of the proxy's time
  // in the benchmark). Exact IPv4 entries are answered from a Set instead: Node accepts only the canonical
  // dotted form of an IPv4 address, so equal strings are equal addresses. Ranges and IPv6 still need the list.
  const exact = new Set(trusted.filter((entry) => isIP(entry) === 4));
  const needsList = trusted.some((entry) => !exact.has(entry));
  return (address: string) => {
    if (exact.has(address)) return true;
    if (!needsList) return false;
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The client `forwardedFor` names, as far as the proxies that wrote it are trusted; `peer` is the socket's. */
function forwardedClient(peer: string, forwardedFor: string | undefined, isTrusted: (address: string) => boolean): string {
  let client = peer;
  if (forwardedFor === undefined || !isTrusted(client)) return client;
  // The usual case, one hop, without building a list.
  if (!forwardedFor.includes(',')) return canonicalAddress(forwardedFor.trim()) ?? client;
  const hops = forwardedFor.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = canonicalAddress(hops[i]!.trim());
    // A trusted proxy writes addresses; anything else means the list was not written by one, so the last
    // trusted hop is the best answer there is.
    if (hop === null) return client;
    client = hop;
    if (!isTrusted(hop)) return hop;
  }
  return client;
}

/** Parses the --trust-proxy list; throws on an entry that is neither an address nor a CIDR range. */
export function trustList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= maxBits && prefix !== ''))) {
      throw new Error(`--trust-proxy: "${entry}" is neither an IP address nor a CIDR range`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return list;
}

/** The socket's peer in its one spelling: an IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d. */
function plain(address: string): string {
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  return canonicalAddress(address) ?? address;
}

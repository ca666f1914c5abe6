// One client, one spelling: an address as X-Forwarded-For or the socket gives it may be written in many ways
// (upper case, the long form of IPv6, an IPv4 address mapped into IPv6, a zone id), and each spelling would be a
// bucket of its own. And one IPv6 client is rarely one address: a customer's line gets a whole /64 (RFC 6177) and
// picks addresses in it at will, so IPv6 is counted per prefix.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The one spelling of `address` (IPv4 dotted; IPv6 as RFC 5952 writes it), or null when it is not an IP address. */
export function canonicalAddress(address: string): string | null {
  // The common case, an IPv4 address, is already in its only form (Node accepts no other as an address).
  if (!address.includes(':')) return isIP(address) === 4 ? address : null;
  const zone = address.indexOf('%');
  const plain = zone === -1 ? address : address.slice(0, zone);
  if (isIP(plain) !== 6) return null;
  const ip = ipaddr.IPv6.parse(plain);
  return ip.isIPv4MappedAddress() ? ip.toIPv4Address().toString() : ip.toString();
}

/** What a canonical address counts as: itself for IPv4, its `prefix`-bit network (`2001:db8:1:2::/64`) for IPv6. */
export function addressBucket(canonical: string, prefix: number): string {
  if (!canonical.includes(':') || prefix === 128) return canonical;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${canonical}/${prefix}`).toString()}/${prefix}`;
}

export function checkIpv6Prefix(prefix: number): number {
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128) throw new Error(`--ipv6-prefix: ${prefix} is not a prefix length from 1 to 128`);
  return prefix;
}

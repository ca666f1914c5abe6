// One client, one spelling: an address as X-Forwarded-For or the socket gives it may be written in many ways
// (upper case, the long form of IPv6, an IPv4 address mapped into IPv6, a zone id), and each spelling would be a
// bucket of its own. And one IPv6 client is rarely one address: a customer's line gets a whole prefix, a /56 or a
// /48 (RFC 6177), with a /64 for each of its networks, and picks addresses in them at will, so IPv6 is counted per
// prefix. An IPv6 address that carries an IPv4 address (6to4, Teredo, NAT64, the mapped, translated and compatible
// forms) is a way of reaching one IPv4 client, which may use as many of them as it likes: it counts as that client.
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

/**
 * What a canonical address counts as: itself for IPv4, the IPv4 address an IPv6 address carries, else its
 * `prefix`-bit network (`2001:db8:1:200::/56`).
 */
export function addressBucket(canonical: string, prefix: number): string {
  if (!canonical.includes(':')) return canonical;
  const ip = ipaddr.IPv6.parse(canonical);
  const carried = carriedIPv4(ip.parts);
  if (carried !== null) return carried;
  if (prefix === 128) return canonical;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${canonical}/${prefix}`).toString()}/${prefix}`;
}

/** The IPv4 address in the 16-bit words `hi` and `lo`. */
function dotted(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * The IPv4 address the IPv6 address of 16-bit words `w` carries, where its form says where: 6to4 (2002::/16, RFC
 * 3056) in bits 16 to 47; Teredo (2001::/32, RFC 4380) the client's public address, inverted, in the last 32 bits;
 * NAT64's well-known prefix (64:ff9b::/96, RFC 6052), IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96, RFC 6145) and the deprecated IPv4-compatible (::/96, RFC 4291) in the last 32 bits. Null for
 * any other address: the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) puts it where the operator's translator
 * chooses, and ISATAP's is an address behind the router whose prefix counts already.
 */
function carriedIPv4(w: number[]): string | null {
  if (w[0] === 0x2002) return dotted(w[1]!, w[2]!);
  if (w[0] === 0x2001 && w[1] === 0) return dotted(w[6]! ^ 0xffff, w[7]! ^ 0xffff);
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return dotted(w[6]!, w[7]!);
  if (zeros(0, 4) && ((w[4] === 0 && w[5] === 0xffff) || (w[4] === 0xffff && w[5] === 0))) return dotted(w[6]!, w[7]!);
  // ::/96 but for :: and ::1, the unspecified and the loopback address.
  if (zeros(0, 6) && (w[6] !== 0 || w[7]! > 1)) return dotted(w[6]!, w[7]!);
  return null;
}

export function checkIpv6Prefix(prefix: number): number {
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128) throw new Error(`--ipv6-prefix: ${prefix} is not a prefix length from 1 to 128`);
  return prefix;
}

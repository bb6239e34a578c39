import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns";
import { lookup as dnsLookupAsync } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { AppError } from "../errors.ts";

/**
 * Where a webhook may be sent (no SSRF): a URL a user types must not reach this server's own
 * network — its loopback, the LAN, the cloud's metadata service. Every address the host resolves to
 * is checked when the endpoint is registered AND at each delivery (DNS may answer differently
 * later: rebinding), and a delivery connects to the very address it checked. WEBHOOK_ALLOW_PRIVATE
 * lifts the rule for operators who trust their network.
 */

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 (unspecified)
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback (::1), the old IPv4-compatible form
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local (private)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(ipv6: string): string | undefined {
  const groups = expandIpv6(ipv6);
  if (!groups) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return undefined;
  return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function expandIpv6(ip: string): number[] | undefined {
  let text = ip.replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...new Array<number>(Math.max(0, zeros)).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** True for an address a webhook may be sent to: public unicast, not loopback, private, link-local… */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !REFUSED.check(address, "ipv4");
  if (family !== 6) return false;
  const inner = embeddedIpv4(address);
  if (inner) return isPublicAddress(inner);
  try {
    return !REFUSED.check(address.replace(/%.*$/, ""), "ipv6");
  } catch {
    return false; // an address BlockList cannot read is no address to call
  }
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

const REASON_SCHEME = "must be an http(s) URL";
const REASON_UNRESOLVED = "its host does not resolve";
export const REASON_PRIVATE = "points to a private, loopback or link-local address, which this server does not call";

/**
 * Registration: the URL is http(s) and, unless `allowPrivate`, every address of its host is public.
 * Throws 10002 naming `url` otherwise.
 */
export async function assertWebhookTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.invalid("url", REASON_SCHEME);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw AppError.invalid("url", REASON_SCHEME);
  if (allowPrivate) return;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw AppError.invalid("url", REASON_UNRESOLVED);
  }
  if (addresses.length === 0) throw AppError.invalid("url", REASON_UNRESOLVED);
  if (!addresses.every(isPublicAddress)) throw AppError.invalid("url", REASON_PRIVATE);
}

async function resolveAll(host: string): Promise<string[]> {
  return (await dnsLookupAsync(host, { all: true, verbatim: true })).map((a) => a.address);
}

/** Raised at delivery when the target's address is not public. */
export class RefusedAddressError extends Error {
  readonly code = "EWEBHOOKADDRESS";
  constructor(address: string) {
    super(`refused: ${address} is not a public address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses non-public addresses: the connection goes to an address
 * this function checked, so a DNS answer that changes between the check and the connect cannot slip
 * through. (An IP literal in the URL skips lookup: check it with isPublicAddress before.)
 */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new RefusedAddressError(refused.address), []);
    if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), []);
    if ((options as LookupAllOptions).all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

import { isIP } from "node:net";

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part and a %zone allowed); undefined for anything else. */
export function ipv6Groups(ip: string): number[] | undefined {
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

/** Dotted IPv4 from two 16-bit groups. */
export function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/**
 * What a per-address limit counts a client by: an IPv4 address as it is, an IPv6 address by its /64 — one
 * subscriber's network, in which a machine may take any address it likes, so counting single IPv6
 * addresses would let one guesser step past the limit — and an IPv4-mapped address (`::ffff:a.b.c.d`, what
 * a server listening on `::` sees) as its IPv4.
 */
export function clientNetwork(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return ipv4Of(groups[6]!, groups[7]!);
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

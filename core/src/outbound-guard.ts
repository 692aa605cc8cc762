/**
 * @module outbound-guard — where Kaizen may send requests of its own (docs/security.md#outbound-requests):
 * on a deployed stage, never to an address inside a network — loopback, private, shared, link-local
 * (instance metadata included) or unique-local — whatever name points there, checked when a URL is
 * set and again at every send, so a name that changes its answer is caught. The local server sends
 * anywhere its user points it (its receivers usually run on the same machine).
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** What an attempt refused by the guard records as its error. */
export const BLOCKED_ADDRESS = "blocked address";

/** Every address a name resolves to, as `dns.lookup` finds them (hosts file included). */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** Where outbound requests may go. */
export interface OutboundGuard {
  /** Why `url` may not be sent to now (its host is, or resolves to, a blocked address), or null. */
  refusal(url: string): Promise<string | null>;
}

/** The guard of the local server: it refuses nothing. */
export const OPEN_GUARD: OutboundGuard = { refusal: async () => null };

let blockList: BlockList | undefined;

/** The ranges no deployed request may reach; built on first use (a cold start that sends nothing builds none). */
function blocked(): BlockList {
  if (blockList) return blockList;
  const list = new BlockList();
  for (const [network, prefix] of [
    ["0.0.0.0", 8], // "this" network
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local, the instance metadata service among them
    ["172.16.0.0", 12], // private
    ["192.168.0.0", 16], // private
  ] as const) {
    list.addSubnet(network, prefix, "ipv4");
  }
  list.addAddress("::", "ipv6"); // unspecified
  list.addAddress("::1", "ipv6"); // loopback
  list.addSubnet("fe80::", 10, "ipv6"); // link-local
  list.addSubnet("fc00::", 7, "ipv6"); // unique-local, the instance metadata service's IPv6 address among them
  blockList = list;
  return list;
}

/**
 * Whether `address` (an IPv4 or IPv6 literal; IPv4-mapped IPv6 as its IPv4) lies inside a network.
 * Anything that is not an address literal counts as blocked: it cannot be judged.
 * @example isBlockedAddress("169.254.169.254") // true; isBlockedAddress("::ffff:10.0.0.1") // true; isBlockedAddress("140.82.112.3") // false
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked().check(address, family === 4 ? "ipv4" : "ipv6");
}

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address }) => address);

/**
 * The guard of a deployed stage: a URL whose host is a blocked address, or resolves to one (any of
 * its answers: a client may connect to any), is refused with {@link BLOCKED_ADDRESS}. A name that
 * does not resolve is not refused here: sending to it fails on its own.
 * @example await publicOnlyGuard().refusal("https://10.0.0.12/hook") // "blocked address"
 */
export function publicOnlyGuard(resolve: HostResolver = systemResolver): OutboundGuard {
  return {
    async refusal(url) {
      let hostname: string;
      try {
        hostname = new URL(url).hostname;
      } catch {
        return BLOCKED_ADDRESS;
      }
      const literal = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
      if (isIP(literal) !== 0) return isBlockedAddress(literal) ? BLOCKED_ADDRESS : null;
      // Loopback by name whatever a resolver says (RFC 6761).
      if (literal === "localhost" || literal.endsWith(".localhost")) return BLOCKED_ADDRESS;
      let addresses: string[];
      try {
        addresses = await resolve(literal);
      } catch {
        return null;
      }
      return addresses.some(isBlockedAddress) ? BLOCKED_ADDRESS : null;
    },
  };
}

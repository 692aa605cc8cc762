/** Where Kaizen's own requests may go (core/src/outbound-guard.ts), with a resolver stand-in for DNS. */
import { describe, expect, it } from "vitest";
import {
  BLOCKED_ADDRESS,
  type HostResolver,
  isBlockedAddress,
  OPEN_GUARD,
  publicOnlyGuard,
} from "../../core/src/outbound-guard.js";

describe("isBlockedAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.0.0.12", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared (carrier NAT)"],
    ["169.254.169.254", "link-local: the instance metadata service"],
    ["0.0.0.0", "this network"],
    ["::1", "IPv6 loopback"],
    ["::", "unspecified"],
    ["fe80::1", "IPv6 link-local"],
    ["fd00:ec2::254", "unique-local: the metadata service over IPv6"],
    ["fc12:3456::1", "unique-local"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped metadata, in hex"],
    ["not-an-address", "not an address at all"],
  ])("refuses %s (%s)", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(["8.8.8.8", "140.82.112.3", "172.32.0.1", "172.15.255.255", "100.128.0.1", "2606:4700::1111"])(
    "allows the public address %s",
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );
});

describe("publicOnlyGuard", () => {
  /** A resolver that answers from a table and counts what it was asked. */
  function resolver(answers: Record<string, string[]>): HostResolver & { asked: string[] } {
    const asked: string[] = [];
    return Object.assign(
      async (hostname: string) => {
        asked.push(hostname);
        const found = answers[hostname];
        if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        return found;
      },
      { asked },
    );
  }

  it("refuses a name that resolves inside a network, even when only one of its answers does", async () => {
    const resolve = resolver({
      "hooks.example.com": ["140.82.112.3"],
      "inside.example.com": ["10.0.0.12"],
      "mixed.example.com": ["140.82.112.3", "169.254.169.254"],
      "six.example.com": ["2606:4700::1111", "fd00::1"],
    });
    const guard = publicOnlyGuard(resolve);
    expect(await guard.refusal("https://hooks.example.com/kaizen")).toBeNull();
    expect(await guard.refusal("https://inside.example.com/kaizen")).toBe(BLOCKED_ADDRESS);
    expect(await guard.refusal("https://mixed.example.com/kaizen")).toBe(BLOCKED_ADDRESS);
    expect(await guard.refusal("https://six.example.com:8443/kaizen")).toBe(BLOCKED_ADDRESS);
    expect(resolve.asked).toEqual(["hooks.example.com", "inside.example.com", "mixed.example.com", "six.example.com"]);
  });

  it("judges address literals without asking the resolver", async () => {
    const resolve = resolver({});
    const guard = publicOnlyGuard(resolve);
    expect(await guard.refusal("https://10.0.0.12/hook")).toBe(BLOCKED_ADDRESS);
    expect(await guard.refusal("http://127.0.0.1:8080/hook")).toBe(BLOCKED_ADDRESS);
    expect(await guard.refusal("https://[::1]/hook")).toBe(BLOCKED_ADDRESS);
    expect(await guard.refusal("https://[fd00:ec2::254]/latest")).toBe(BLOCKED_ADDRESS);
    expect(await guard.refusal("https://140.82.112.3/hook")).toBeNull();
    expect(await guard.refusal("http://localhost:4242/hook")).toBe(BLOCKED_ADDRESS);
    expect(await guard.refusal("https://api.localhost/hook")).toBe(BLOCKED_ADDRESS);
    expect(resolve.asked).toEqual([]);
  });

  it("asks again every time, so a name that changes its answer is caught", async () => {
    const answers: Record<string, string[]> = { "flip.example.com": ["140.82.112.3"] };
    const guard = publicOnlyGuard(resolver(answers));
    expect(await guard.refusal("https://flip.example.com/")).toBeNull();
    answers["flip.example.com"] = ["192.168.0.10"];
    expect(await guard.refusal("https://flip.example.com/")).toBe(BLOCKED_ADDRESS);
  });

  it("leaves a name that does not resolve to fail on its own, and refuses what is not a URL", async () => {
    const guard = publicOnlyGuard(resolver({}));
    expect(await guard.refusal("https://nowhere.invalid/")).toBeNull();
    expect(await guard.refusal("not a url")).toBe(BLOCKED_ADDRESS);
  });

  it("is not the local server's: that one refuses nothing", async () => {
    expect(await OPEN_GUARD.refusal("http://127.0.0.1:9/hook")).toBeNull();
  });
});

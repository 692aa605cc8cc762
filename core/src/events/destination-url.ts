/**
 * @module events/destination-url — which URLs a destination may have (docs/api.md#outbound-events), without zod:
 * ./schemas.ts validates with it, and the CLI checks a URL with it before any request.
 */

/** Hosts a destination may be reached at over plain `http`: this machine only. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why `value` cannot be a destination's URL, or undefined when it can: an absolute `https` URL, or
 * `http` to localhost, 127.0.0.1 or [::1]; no credentials in it (they would be sent with every event
 * and shown in every listing).
 */
export function destinationUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username !== "" || url.password !== "") return "must not carry a user name or password";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return "must be https (plain http only to localhost, 127.0.0.1 or [::1])";
}

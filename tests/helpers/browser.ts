/**
 * Headless Chromium for the browser tests: Debian's package (`apt-get install -y chromium`, which
 * .ci/run does) driven by playwright-core, in a fresh profile that reaches nothing by itself.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** A browser context in a profile of its own, removed again by `close()`. */
export async function launchChromium(
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), "kaizen-chromium-profile-"));
  // playwright passes the folder as --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The URLs in `requested` that are not the local server's (nor `data:`). */
export function requestsElsewhere(requested: string[]): string[] {
  return requested.filter((url) => {
    const { protocol, hostname } = new URL(url);
    return !(protocol === "data:" || hostname === "127.0.0.1" || hostname === "localhost");
  });
}

/** The client's connection settings and retry waits: pure, no server. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_URL, resolveConnection, retryDelay } from "../../../client/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A working directory whose `.data/api-key` holds `key`. */
function withLocalKey(key: string): string {
  const dir = mkdtempSync(join(tmpdir(), "kaizen-config-"));
  dirs.push(dir);
  mkdirSync(join(dir, ".data"));
  writeFileSync(join(dir, ".data", "api-key"), `${key}\n`);
  return dir;
}

describe("resolveConnection", () => {
  it("reads KAIZEN_URL, KAIZEN_API_KEY and KAIZEN_DISPATCH_TOKEN", () => {
    const cwd = withLocalKey("kaizen_from_file");
    expect(
      resolveConnection(
        { KAIZEN_URL: "https://kaizen.example.com", KAIZEN_API_KEY: " kaizen_env ", KAIZEN_DISPATCH_TOKEN: "kzd_x" },
        cwd,
      ),
    ).toEqual({
      url: "https://kaizen.example.com",
      apiKey: "kaizen_env",
      dispatchToken: "kzd_x",
      apiKeySource: "KAIZEN_API_KEY",
    });
  });

  it("falls back to the local server and the key in .data/api-key of the working directory", () => {
    const cwd = withLocalKey("kaizen_from_file");
    expect(resolveConnection({}, cwd)).toEqual({
      url: DEFAULT_URL,
      apiKey: "kaizen_from_file",
      dispatchToken: undefined,
      apiKeySource: join(cwd, ".data", "api-key"),
    });
  });

  it("never sends the local key to another service", () => {
    const cwd = withLocalKey("kaizen_from_file");
    const connection = resolveConnection({ KAIZEN_URL: "https://kaizen.example.com" }, cwd);
    expect(connection.apiKey).toBeUndefined();
    expect(connection.apiKeySource).toBeUndefined();
  });

  it("treats empty variables as unset", () => {
    const cwd = withLocalKey("kaizen_from_file");
    const connection = resolveConnection({ KAIZEN_URL: "", KAIZEN_API_KEY: "  ", KAIZEN_DISPATCH_TOKEN: "" }, cwd);
    expect(connection).toMatchObject({ url: DEFAULT_URL, apiKey: "kaizen_from_file", dispatchToken: undefined });
  });
});

describe("retryDelay", () => {
  it("follows Retry-After, capped", () => {
    expect(retryDelay(1, "2", 5_000)).toBe(2_000);
    expect(retryDelay(1, "0", 5_000)).toBe(0);
    expect(retryDelay(1, "60", 5_000)).toBe(5_000);
  });

  it("otherwise waits a random time below a ceiling that doubles per attempt", () => {
    for (const attempt of [1, 2, 3]) {
      const draws = Array.from({ length: 200 }, () => retryDelay(attempt, null, 5_000));
      const ceiling = 200 * 2 ** (attempt - 1);
      expect(Math.max(...draws)).toBeLessThan(ceiling);
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
      expect(new Set(draws).size).toBeGreaterThan(10);
    }
    expect(retryDelay(10, "soon", 1_000)).toBeLessThanOrEqual(1_000);
  });
});

/**
 * `kaizen keys`: `--scope` and `--expires` as typed, how keys are listed and shown, what a create and
 * a revocation print (pure functions), and the requests the commands send, to a stub that records
 * them (in process, no server): the body a create builds from its flags, the service key even with
 * a dispatch token set, and usage errors before any request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  createdLines,
  formatKey,
  formatKeyList,
  parseExpiry,
  parseScopes,
  projectsText,
  revokedLine,
  SCOPES,
} from "../../../client/cli/commands/keys.js";
import { UsageError } from "../../../client/cli/runtime.js";
import type { Schema } from "../../../client/client.js";
import { GRANT_CACHE_MS } from "../../../core/src/access/key-check.js";
import { SCOPES as API_SCOPES } from "../../../core/src/routes.js";
import { inProcessKaizen, withStub } from "../../helpers/cli-stub.js";

type ApiKey = Schema<"ApiKey">;

const NOW = new Date("2026-11-25T09:00:00.000Z");
const PRJ_A = "prj_01J2ZQ5K8Y3M4N6P7R9S0T1V2A";
const PRJ_B = "prj_01J2ZQ5K8Y3M4N6P7R9S0T1V2B";
const PRJ_C = "prj_01J2ZQ5K8Y3M4N6P7R9S0T1V2C";
const KEY_TEXT = `kaizen_${"3f".repeat(32)}`;

function apiKey(fields: Partial<ApiKey> = {}): ApiKey {
  return {
    id: "key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W",
    name: "ci-bot",
    scopes: ["read"],
    projectIds: null,
    prefix: KEY_TEXT.slice(0, 12),
    createdAt: "2026-11-20T08:30:00.000Z",
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...fields,
  };
}

describe("SCOPES", () => {
  it("are the API's scopes, in its order", () => {
    expect(SCOPES).toEqual([...API_SCOPES]);
  });
});

describe("parseScopes", () => {
  it("takes the flag repeated and names separated by commas, in any case, each once in the order given", () => {
    expect(parseScopes("read")).toEqual(["read"]);
    expect(parseScopes(["write", "read, Dispatch", "write"])).toEqual(["write", "read", "dispatch"]);
  });

  it("names an unknown scope and lists the scopes; an empty list is refused too", () => {
    expect(() => parseScopes(["read", "owner"])).toThrow(UsageError);
    expect(() => parseScopes(["read", "owner"])).toThrow(
      "--scope: owner is not a scope; the scopes are read, write, dispatch, admin",
    );
    expect(() => parseScopes(" , ")).toThrow("--scope needs at least one of: read, write, dispatch, admin");
  });
});

describe("parseExpiry", () => {
  it("counts a duration in minutes, hours, days or weeks from now", () => {
    expect(parseExpiry("30d", NOW)).toBe("2026-12-25T09:00:00.000Z");
    expect(parseExpiry("12h", NOW)).toBe("2026-11-25T21:00:00.000Z");
    expect(parseExpiry("90m", NOW)).toBe("2026-11-25T10:30:00.000Z");
    expect(parseExpiry("2W", NOW)).toBe("2026-12-09T09:00:00.000Z");
  });

  it("takes a day as its start in UTC, and a time with its zone as the same instant in UTC", () => {
    expect(parseExpiry("2027-01-31", NOW)).toBe("2027-01-31T00:00:00.000Z");
    expect(parseExpiry("2027-01-31T18:00:00Z", NOW)).toBe("2027-01-31T18:00:00.000Z");
    expect(parseExpiry("2027-01-31T18:00:00.250Z", NOW)).toBe("2027-01-31T18:00:00.250Z");
    expect(parseExpiry("2027-01-31T18:00+01:00", NOW)).toBe("2027-01-31T17:00:00.000Z");
    expect(parseExpiry("2027-01-31t18:00z", NOW)).toBe("2027-01-31T18:00:00.000Z");
  });

  it.each([
    ["0d", "--expires must be after now: 0d"],
    ["30 days", "--expires must be a duration (30d, 12h, 90m, 2w), a day (2027-01-31) or a time with its zone"],
    ["tomorrow", "--expires must be a duration"],
    ["2027-02-30", "--expires: 2027-02-30 is not a day"],
    ["2027-13-01T00:00Z", "--expires: 2027-13-01 is not a day"],
    ["2027-01-31T18:00", "--expires: give the time's zone (Z for UTC, or +01:00): 2027-01-31T18:00"],
    ["2027-01-31T25:00Z", "--expires: 2027-01-31T25:00Z is not a time"],
  ])("refuses %j", (value, message) => {
    expect(() => parseExpiry(value, NOW)).toThrow(UsageError);
    expect(() => parseExpiry(value, NOW)).toThrow(message);
  });
});

describe("formatKeyList", () => {
  it("shows each key's id, name, scopes, projects, prefix, last use, expiry and revocation, aligned", () => {
    const keys = [
      apiKey(),
      apiKey({
        id: "key_01J2ZQ5K8Y3M4N6P7R9S0T1V2X",
        name: "fleet",
        scopes: ["read", "dispatch"],
        projectIds: [PRJ_A, PRJ_B, PRJ_C],
        prefix: "kaizen_9a8b7",
        expiresAt: "2026-12-25T09:00:00.000Z",
        lastUsedAt: "2026-11-24T17:45:12.000Z",
        revokedAt: "2026-11-25T08:59:00.000Z",
      }),
      apiKey({
        id: "key_01J2ZQ5K8Y3M4N6P7R9S0T1V2Y",
        name: "old",
        projectIds: [PRJ_A],
        prefix: "kaizen_00000",
        expiresAt: "2026-11-01T00:00:00.000Z",
      }),
    ];
    expect(formatKeyList(keys, false, NOW).split("\n")).toEqual([
      "ID                              NAME    SCOPES         PROJECTS                           PREFIX        LAST USED         EXPIRES                     REVOKED",
      "key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W  ci-bot  read           all                                kaizen_3f3f3  never             never                       -",
      `key_01J2ZQ5K8Y3M4N6P7R9S0T1V2X  fleet   read,dispatch  ${PRJ_A} +2  kaizen_9a8b7  2026-11-24 17:45  2026-12-25 09:00            2026-11-25 08:59`,
      `key_01J2ZQ5K8Y3M4N6P7R9S0T1V2Y  old     read           ${PRJ_A}     kaizen_00000  never             2026-11-01 00:00 (expired)  -`,
    ]);
  });

  it("colours a revocation and a passed expiry red, on a terminal only", () => {
    const keys = [apiKey({ revokedAt: "2026-11-25T08:59:00.000Z", expiresAt: "2026-11-01T00:00:00.000Z" })];
    const coloured = formatKeyList(keys, true, NOW);
    expect(coloured).toContain("\u001b[31m2026-11-01 00:00 (expired)");
    expect(coloured).toContain("\u001b[31m2026-11-25 08:59");
    expect(stripVTControlCharacters(coloured)).toBe(formatKeyList(keys, false, NOW));
  });
});

describe("formatKey", () => {
  it("shows every field; every project when not narrowed, and no revocation", () => {
    expect(formatKey(apiKey(), false, NOW)).toBe(
      [
        "ci-bot  (key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W)",
        "scopes     read",
        "projects   every project",
        "prefix     kaizen_3f3f3… (the key's first 12 characters)",
        "created    2026-11-20 08:30",
        "expires    never",
        "last used  never",
        "revoked    no",
      ].join("\n"),
    );
  });

  it("lists a narrowed key's projects, its expiry once passed and its revocation", () => {
    const shown = formatKey(
      apiKey({
        scopes: ["write", "dispatch"],
        projectIds: [PRJ_A, PRJ_B],
        expiresAt: "2026-11-01T00:00:00.000Z",
        lastUsedAt: "2026-10-30T12:00:00.000Z",
        revokedAt: "2026-11-25T08:59:00.000Z",
      }),
      false,
      NOW,
    ).split("\n");
    expect(shown).toContain("scopes     write, dispatch");
    expect(shown).toContain(`projects   ${PRJ_A}, ${PRJ_B}`);
    expect(shown).toContain("expires    2026-11-01 00:00 (expired)");
    expect(shown).toContain("last used  2026-10-30 12:00");
    expect(shown).toContain("revoked    2026-11-25 08:59");
  });
});

describe("projectsText", () => {
  it("says every project for a key not narrowed, else lists the ids", () => {
    expect(projectsText(null)).toBe("every project");
    expect(projectsText([PRJ_A, PRJ_B])).toBe(`${PRJ_A}, ${PRJ_B}`);
  });
});

describe("createdLines", () => {
  it("says what the key holds, prints the key on a line of its own, and that it is shown once", () => {
    expect(createdLines({ ...apiKey(), key: KEY_TEXT }, false)).toEqual([
      "Created key key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W (ci-bot): read on every project; never expires.",
      `key  ${KEY_TEXT}`,
      "The key is shown once, now: store it (as KAIZEN_API_KEY, or Authorization: Bearer …). Kaizen keeps only its digest.",
    ]);
    const narrowed = createdLines(
      {
        ...apiKey({ scopes: ["read", "write"], projectIds: [PRJ_A], expiresAt: "2026-12-25T09:00:00.000Z" }),
        key: KEY_TEXT,
      },
      false,
    );
    expect(narrowed[0]).toBe(
      `Created key key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W (ci-bot): read, write on ${PRJ_A}; expires 2026-12-25 09:00 UTC.`,
    );
  });

  it("colours the key and the warning on a terminal only", () => {
    const lines = createdLines({ ...apiKey(), key: KEY_TEXT }, true);
    expect(lines[1]).toBe(`key  \u001b[33m${KEY_TEXT}\u001b[39m`);
    expect(lines[2]?.startsWith("\u001b[1mThe key is shown once")).toBe(true);
  });
});

describe("revokedLine", () => {
  it("says when, and from when the key is refused: at once here, everywhere within the check's cache bound", () => {
    const line = revokedLine(apiKey({ revokedAt: "2026-11-25T09:00:00.000Z" }));
    expect(line).toBe(
      "Revoked key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W (ci-bot) at 2026-11-25 09:00 UTC: refused at once on the instance that revoked it and everywhere within 30 s.",
    );
    // The bound the line states is the one the service holds a grant for.
    expect(line).toContain(`everywhere within ${GRANT_CACHE_MS / 1000} s.`);
  });
});

// The commands in process, against a stub recording each request.

const cwd = mkdtempSync(join(tmpdir(), "kaizen-cli-keys-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const kaizen = inProcessKaizen(cwd);

const TOKEN = `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0".repeat(64)}`;

describe("kaizen keys create", () => {
  it("sends the name, the scopes, the projects and the expiry, with the service key even beside a dispatch token", async () => {
    const created = { ...apiKey({ scopes: ["read", "write"], projectIds: [PRJ_A, PRJ_B] }), key: KEY_TEXT };
    await withStub(
      () => ({ status: 201, json: { data: created } }),
      async (url, seen) => {
        const before = Date.now();
        const run = await kaizen(
          ["keys", "create", "--scope", "read", "ci-bot", "--scope", "write", "--project", PRJ_A],
          { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin", KAIZEN_DISPATCH_TOKEN: TOKEN },
        );
        expect(run.stderr).toBe("");
        expect(run.status).toBe(0);
        expect(run.stdout).toContain(`\nkey  ${KEY_TEXT}\nThe key is shown once`);
        expect(seen).toMatchObject([{ method: "POST", url: "/api/keys", authorization: "Bearer kaizen_admin" }]);
        expect(JSON.parse(seen[0]?.body ?? "")).toEqual({
          name: "ci-bot",
          scopes: ["read", "write"],
          projectIds: [PRJ_A],
        });

        const more = await kaizen(
          [
            "keys",
            "create",
            "fleet",
            "--scope",
            "dispatch,read",
            "--project",
            PRJ_A,
            "--project",
            PRJ_B,
            "--project",
            PRJ_A,
            "--expires",
            "30d",
            "--json",
          ],
          { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" },
        );
        expect(more.status).toBe(0);
        expect(JSON.parse(more.stdout)).toEqual(created);
        const body = JSON.parse(seen[1]?.body ?? "") as { expiresAt: string };
        expect(body).toMatchObject({ name: "fleet", scopes: ["dispatch", "read"], projectIds: [PRJ_A, PRJ_B] });
        const thirtyDays = 30 * 86_400_000;
        expect(Date.parse(body.expiresAt)).toBeGreaterThanOrEqual(before + thirtyDays);
        expect(Date.parse(body.expiresAt)).toBeLessThanOrEqual(Date.now() + thirtyDays);
      },
    );
  });

  it.each([
    [["keys", "create", "ci-bot"], "Missing required argument: scope"],
    [["keys", "create", "ci-bot", "--scope", "owner"], "--scope: owner is not a scope"],
    [["keys", "create", "ci-bot", "--scope", "read", "--expires", "soon"], "--expires must be a duration"],
    [["keys"], "Which keys command? (create, list, show, revoke)"],
    [["keys", "revoke"], "Not enough non-option arguments"],
  ])("kaizen %j is a usage error before any request", async (args, message) => {
    await withStub(
      () => ({ status: 500, json: {} }),
      async (url, seen) => {
        const run = await kaizen(args, { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" });
        expect(run.status).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toContain(message);
        expect(seen).toEqual([]);
      },
    );
  });

  it("needs the service key: a dispatch token alone is exit 2 naming the key", async () => {
    const run = await kaizen(["keys", "list"], {
      KAIZEN_URL: "https://kaizen.example.com",
      KAIZEN_DISPATCH_TOKEN: TOKEN,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("No API key for https://kaizen.example.com");
  });
});

describe("kaizen keys list, show and revoke", () => {
  it("ask for the page, the key and its revocation, and print what the API answered", async () => {
    const revoked = apiKey({ revokedAt: "2026-11-25T09:00:00.000Z" });
    await withStub(
      (request) =>
        request.method === "GET" && request.url?.startsWith("/api/keys?")
          ? { status: 200, json: { data: [apiKey()], total: 3 } }
          : request.method === "DELETE"
            ? { status: 200, json: { data: revoked } }
            : { status: 200, json: { data: apiKey() } },
      async (url, seen) => {
        const env = { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" };
        const list = await kaizen(["keys", "list", "--page", "2", "--limit", "1"], env);
        expect(list.status).toBe(0);
        expect(list.stdout.split("\n")[1]).toMatch(/^key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W {2}ci-bot {2}read /);
        expect(list.stdout).toContain("2–2 of 3 keys (--page 3 for more)");
        const show = await kaizen(["keys", "show", revoked.id], env);
        expect(show.stdout).toContain("projects   every project");
        const revoke = await kaizen(["keys", "revoke", revoked.id], env);
        expect(revoke.stdout).toBe(`${revokedLine(revoked)}\n`);
        expect(seen.map(({ method, url: path, authorization }) => [method, path, authorization])).toEqual([
          ["GET", "/api/keys?page=2&limit=1", "Bearer kaizen_admin"],
          ["GET", `/api/keys/${revoked.id}`, "Bearer kaizen_admin"],
          ["DELETE", `/api/keys/${revoked.id}`, "Bearer kaizen_admin"],
        ]);
      },
    );
  });
});

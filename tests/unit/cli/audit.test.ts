/**
 * `kaizen audit`: `--since` as typed, who and what a record shows, the table newest first, the query
 * its flags make (pure functions), and the request the command sends, to a stub that records it (in
 * process, no server): the filters in the query, the service key even with a dispatch token set, and
 * usage errors before any request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type AuditRecord,
  actorText,
  auditQuery,
  auditTime,
  formatAuditList,
  parseSince,
  requestText,
} from "../../../client/cli/commands/audit.js";
import { UsageError } from "../../../client/cli/runtime.js";
import { inProcessKaizen, withStub } from "../../helpers/cli-stub.js";

const NOW = new Date("2026-11-25T09:00:00.000Z");
const KEY_ID = "key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W";

function record(fields: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: "aud_01J2ZQ5K8Y3M4N6P7R9S0T1V2A",
    at: "2026-11-25T08:59:41.512Z",
    actor: { kind: "root", id: "root", name: "root key" },
    method: "POST",
    path: "/api/keys",
    action: null,
    targetId: KEY_ID,
    status: 201,
    requestId: "req-1",
    userAgent: "kaizen-cli",
    ...fields,
  };
}

describe("parseSince", () => {
  // The parser is the one --expires uses (client/cli/options.ts parseInstant), tested in full in keys.test.ts.
  it("counts a duration back from now, takes a day or a time with its zone, and names --since when it refuses", () => {
    expect(parseSince("2h", NOW)).toBe("2026-11-25T07:00:00.000Z");
    expect(parseSince(" 12 h ", NOW)).toBe("2026-11-24T21:00:00.000Z");
    expect(parseSince("2026-11-20", NOW)).toBe("2026-11-20T00:00:00.000Z");
    expect(parseSince("2026-11-20T18:30+01:00", NOW)).toBe("2026-11-20T17:30:00.000Z");
    expect(() => parseSince("yesterday", NOW)).toThrow(UsageError);
    expect(() => parseSince("yesterday", NOW)).toThrow("--since must be a duration (30m, 2h, 7d, 2w), a day");
    expect(() => parseSince("2026-11-20T18:30", NOW)).toThrow("--since: give the time's zone");
  });
});

describe("what a record shows", () => {
  it("its time to the second, in UTC", () => {
    expect(auditTime("2026-11-25T08:59:41.512Z")).toBe("2026-11-25 08:59:41");
  });

  it("who acted: the actor's name, unauthenticated for a 401, kaizen for Kaizen's own actions", () => {
    expect(actorText(record())).toBe("root key");
    expect(actorText(record({ actor: { kind: "key", id: KEY_ID, name: "ci-reader" } }))).toBe("ci-reader");
    expect(actorText(record({ actor: null, status: 401 }))).toBe("unauthenticated");
    expect(actorText(record({ actor: { kind: "automation", id: "kaizen", name: "Kaizen automation" } }))).toBe(
      "kaizen",
    );
  });

  it("what was done: the method and path, or Kaizen's action", () => {
    expect(requestText(record())).toBe("POST /api/keys");
    expect(requestText(record({ method: null, path: null, action: "issue.status in_review→done" }))).toBe(
      "issue.status in_review→done",
    );
    expect(requestText(record({ method: null, path: null, action: null }))).toBe("-");
  });
});

describe("formatAuditList", () => {
  const records = [
    record({
      id: "aud_3",
      at: "2026-11-25T09:00:02.000Z",
      actor: { kind: "automation", id: "kaizen", name: "kaizen" },
      method: null,
      path: null,
      action: "issue.status in_review→done",
      targetId: "iss_01J2ZQ5K8Y3M4N6P7R9S0T1V2X",
      status: null,
      requestId: null,
    }),
    record({
      id: "aud_2",
      at: "2026-11-25T09:00:01.000Z",
      actor: null,
      path: "/api/issues",
      targetId: null,
      status: 401,
    }),
    record({ id: "aud_1" }),
  ];

  it("prints time, actor, request, target and status, in the API's order (newest first)", () => {
    expect(formatAuditList(records, false).split("\n")).toEqual([
      "TIME (UTC)           ACTOR            REQUEST                      TARGET                          STATUS",
      "2026-11-25 09:00:02  kaizen           issue.status in_review→done  iss_01J2ZQ5K8Y3M4N6P7R9S0T1V2X  -",
      "2026-11-25 09:00:01  unauthenticated  POST /api/issues             -                               401",
      `2026-11-25 08:59:41  root key         POST /api/keys               ${KEY_ID}  201`,
    ]);
  });

  it("colours refusals red and successes green on a terminal only", () => {
    const lines = formatAuditList(records, true).split("\n");
    expect(lines[2]?.endsWith("\u001b[31m401\u001b[39m")).toBe(true);
    expect(lines[3]?.endsWith("\u001b[32m201\u001b[39m")).toBe(true);
    expect(formatAuditList(records, false)).not.toContain("\u001b[");
  });
});

describe("auditQuery", () => {
  it("sends the filters given, and the status as its digits", () => {
    expect(auditQuery({ page: 2, limit: 5 })).toEqual({ page: 2, limit: 5 });
    expect(
      auditQuery({
        page: 1,
        limit: 20,
        actor: KEY_ID,
        target: "iss_1",
        status: 403,
        since: "2026-11-25T07:00:00.000Z",
      }),
    ).toEqual({
      page: 1,
      limit: 20,
      actorId: KEY_ID,
      targetId: "iss_1",
      status: "403",
      since: "2026-11-25T07:00:00.000Z",
    });
  });
});

// The command in process, against a stub recording each request.

const cwd = mkdtempSync(join(tmpdir(), "kaizen-cli-audit-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const kaizen = inProcessKaizen(cwd);

const TOKEN = `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0".repeat(64)}`;

describe("kaizen audit", () => {
  it("asks for the page with its filters, with the service key even beside a dispatch token, and prints the table", async () => {
    await withStub(
      () => ({ status: 200, json: { data: [record()], total: 3 } }),
      async (url, seen) => {
        const env = { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin", KAIZEN_DISPATCH_TOKEN: TOKEN };
        const before = Date.now();
        const run = await kaizen(
          [
            "audit",
            "--actor",
            KEY_ID,
            "--target",
            "iss_1",
            "--status",
            "403",
            "--since",
            "2h",
            "--page",
            "2",
            "--limit",
            "1",
          ],
          env,
        );
        expect(run.stderr).toBe("");
        expect(run.status).toBe(0);
        expect(run.stdout.split("\n")[1]).toBe(`2026-11-25 08:59:41  root key  POST /api/keys  ${KEY_ID}  201`);
        expect(run.stdout).toContain("2–2 of 3 records (--page 3 for more)");
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({ method: "GET", authorization: "Bearer kaizen_admin" });
        const query = new URL(seen[0]?.url ?? "", url).searchParams;
        expect(Object.fromEntries([...query].filter(([name]) => name !== "since"))).toEqual({
          page: "2",
          limit: "1",
          actorId: KEY_ID,
          targetId: "iss_1",
          status: "403",
        });
        const since = Date.parse(query.get("since") ?? "");
        expect(since).toBeGreaterThanOrEqual(before - 2 * 3_600_000);
        expect(since).toBeLessThanOrEqual(Date.now() - 2 * 3_600_000);

        const json = await kaizen(["audit", "--json"], env);
        expect(JSON.parse(json.stdout)).toEqual([record()]);
        expect(seen[1]?.url).toBe("/api/audit?page=1&limit=20");
      },
    );
  });

  it("says so when no record matches", async () => {
    await withStub(
      () => ({ status: 200, json: { data: [], total: 0 } }),
      async (url) => {
        const run = await kaizen(["audit", "--status", "500"], { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" });
        expect(run).toEqual({ status: 0, stdout: "No records.\n", stderr: "" });
      },
    );
  });

  it.each([
    [["audit", "--status", "42"], "--status must be a whole number from 100 to 599"],
    [["audit", "--status", "forbidden"], "--status must be a whole number from 100 to 599"],
    [["audit", "--since", "last week"], "--since must be a duration"],
    [["audit", "list"], "Unknown argument: list"],
  ])("kaizen %j is a usage error before any request", async (args, message) => {
    await withStub(
      () => ({ status: 200, json: { data: [], total: 0 } }),
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
    const run = await kaizen(["audit"], { KAIZEN_URL: "https://kaizen.example.com", KAIZEN_DISPATCH_TOKEN: TOKEN });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("No API key for https://kaizen.example.com");
  });
});

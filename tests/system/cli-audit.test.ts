/**
 * The audit log with the `kaizen` CLI (subprocesses, `node bin/kaizen.js`) against a real local
 * server: `kaizen audit` lists a key's creation (who, what, on which key, 201), newest first; a call
 * the key's scope refuses is a 403 record that `--status 403` and `--actor` find alone; a wrong key
 * is an `unauthenticated` 401; `--target` finds what was done to a key and `--since` bounds the
 * time; `--json` prints the API's records; a key without the admin scope may not read the log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, cliRunner, apiData as fetchData } from "../helpers/cli.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

let server: TestServer;
let kaizen: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  server = await startTestServer("cli_audit");
  kaizen = cliRunner(server);
});

afterAll(async () => {
  await server?.stop();
});

const withKey = { KAIZEN_API_KEY: TEST_API_KEY };
const apiData = <T>(path: string) => fetchData<T>(server, path);

interface AuditRecord {
  actor: { kind: string; id: string; name: string } | null;
  method: string | null;
  path: string | null;
  targetId: string | null;
  status: number | null;
}

function ok(run: CliRun): string {
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

/** The table's rows as cells (columns are two or more spaces apart), header and footer left out. */
function rows(printed: string): string[][] {
  const lines = printed.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^TIME \(UTC\) +ACTOR +REQUEST +TARGET +STATUS$/);
  return lines.slice(1, -1).map((line) => line.split(/ {2,}/));
}

/** A request to the API with `key`, as any client holding it would send it. */
function call(key: string, method: "GET" | "POST", path: string, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

/** A key holding `scopes`, made with the service key over HTTP: its id and text. */
async function makeKey(name: string, scopes: string[]): Promise<{ id: string; key: string }> {
  const response = await call(TEST_API_KEY, "POST", "/api/keys", { name, scopes });
  expect(response.status).toBe(201);
  const { id, key } = ((await response.json()) as { data: { id: string; key: string } }).data;
  return { id, key };
}

describe("the audit log with the CLI", () => {
  it("lists a key's creation, finds a refused call by --status 403 and --actor, and a wrong key as unauthenticated", async () => {
    const { id: keyId, key } = await makeKey("auditee", ["read"]);
    // A change the read key may not make: refused, and recorded with who was refused.
    const refused = await call(key, "POST", "/api/issues", { title: "Written with a read key", type: "task" });
    expect(refused.status).toBe(403);
    // A wrong key names no one.
    expect((await call(`kaizen_${"0".repeat(64)}`, "GET", "/api/issues")).status).toBe(401);

    // Newest first: the 401, the 403, then the key's creation by the root key, on the new key, 201.
    const all = ok(await kaizen(["audit"], withKey));
    const listed = rows(all);
    expect(listed[0]).toEqual([TIME, "unauthenticated", "GET /api/issues", "-", "401"]);
    expect(listed[1]).toEqual([TIME, "auditee", "POST /api/issues", "-", "403"]);
    expect(listed.slice(2)).toContainEqual([TIME, "root key", "POST /api/keys", keyId, "201"]);
    expect(all.trimEnd().split("\n").at(-1)).toBe(`1–${listed.length} of ${listed.length} records`);

    const forbidden = ok(await kaizen(["audit", "--status", "403"], withKey));
    expect(rows(forbidden)).toEqual([[TIME, "auditee", "POST /api/issues", "-", "403"]]);
    expect(forbidden.trimEnd().split("\n").at(-1)).toBe("1–1 of 1 records");

    // --json: the API's records, as filtered; --actor keeps the key's own.
    const json = JSON.parse(ok(await kaizen(["audit", "--actor", keyId, "--json"], withKey))) as AuditRecord[];
    expect(json).toEqual(await apiData(`/api/audit?actorId=${keyId}`));
    expect(json).toMatchObject([
      { actor: { kind: "key", id: keyId, name: "auditee" }, method: "POST", path: "/api/issues", status: 403 },
    ]);

    // --target keeps what was done to the key; --since bounds the time: from an hour ago, it is there,
    // from a day to come, nothing is.
    expect(rows(ok(await kaizen(["audit", "--target", keyId, "--since", "1h"], withKey)))).toEqual([
      [TIME, "root key", "POST /api/keys", keyId, "201"],
    ]);
    expect(ok(await kaizen(["audit", "--since", "2099-01-01"], withKey))).toBe("No records.\n");
  });

  it("needs the admin scope: a read key is refused, and its refusal is recorded", async () => {
    const created = await makeKey("log-reader", ["read"]);
    const refused = await kaizen(["audit"], { KAIZEN_API_KEY: created.key });
    expect(refused).toMatchObject({ status: 1, stdout: "" });
    expect(refused.stderr).toContain("kaizen: 403 Key log-reader lacks the admin scope");
    expect(rows(ok(await kaizen(["audit", "--actor", created.id], withKey)))).toEqual([
      [TIME, "log-reader", "GET /api/audit", "-", "403"],
    ]);
  });
});

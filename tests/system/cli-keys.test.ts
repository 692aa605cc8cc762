/**
 * API keys with the `kaizen` CLI (subprocesses, `node bin/kaizen.js`) against a real local server:
 * `keys create` with the read scope prints the key once; `keys list` shows it by its first 12
 * characters; the printed key reads issues but may not create one (403 naming the scope it lacks)
 * nor manage keys; `keys revoke` refuses it at once on this instance (401), `keys show` says when.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, cliRunner, apiData as fetchData } from "../helpers/cli.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

let server: TestServer;
let kaizen: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  server = await startTestServer("cli_keys");
  kaizen = cliRunner(server);
});

afterAll(async () => {
  await server?.stop();
});

const withKey = { KAIZEN_API_KEY: TEST_API_KEY };
const apiData = <T>(path: string) => fetchData<T>(server, path);

function ok(run: CliRun): string {
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

/** A request to the API with `key`, as any client holding it would send it. */
function call(key: string, method: "GET" | "POST", path: string, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("API keys with the CLI", () => {
  it("creates a read key, lists it by its prefix, holds it to its scope, and revokes it", async () => {
    // Created: the key on a line of its own, said to be shown this once.
    const created = ok(await kaizen(["keys", "create", "cli-reader", "--scope", "read"], withKey));
    const [summary, keyLine, warning] = created.trimEnd().split("\n");
    const id = /^Created key (key_\w{26}) \(cli-reader\): read on every project; never expires\.$/.exec(
      summary ?? "",
    )?.[1];
    expect(id, summary).toBeDefined();
    const key = /^key {2}(kaizen_[0-9a-f]{64})$/.exec(keyLine ?? "")?.[1] ?? "";
    expect(key, keyLine).toMatch(/^kaizen_[0-9a-f]{64}$/);
    expect(warning).toMatch(/^The key is shown once, now: store it/);

    // Listed with the first 12 characters of its text, never the text itself.
    const listed = ok(await kaizen(["keys", "list"], withKey));
    expect(listed).not.toContain(key);
    const row = listed.split("\n").find((line) => line.startsWith(`${id} `));
    expect(row?.split(/ {2,}/)).toEqual([id, "cli-reader", "read", "all", key.slice(0, 12), "never", "never", "-"]);
    expect(listed.trimEnd().split("\n").at(-1)).toBe("1–1 of 1 keys");
    const keys = await apiData<{ id: string; prefix: string }[]>("/api/keys");
    expect(JSON.parse(ok(await kaizen(["keys", "list", "--json"], withKey)))).toEqual(keys);
    expect(keys).toMatchObject([{ id, prefix: key.slice(0, 12) }]);

    // The key reads, but writes nothing and manages no keys: 403 naming the scope it lacks.
    expect((await call(key, "GET", "/api/issues")).status).toBe(200);
    const write = await call(key, "POST", "/api/issues", { title: "Written with a read key", type: "task" });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { error: string }).error).toBe("Key cli-reader lacks the write scope");
    ok(await kaizen(["issues", "list"], { KAIZEN_API_KEY: key }));
    const manage = await kaizen(["keys", "list"], { KAIZEN_API_KEY: key });
    expect(manage).toMatchObject({ status: 1, stdout: "" });
    expect(manage.stderr).toContain("kaizen: 403 Key cli-reader lacks the admin scope");

    // Revoked: refused at once on this instance, whatever it asks; show says when.
    const revoked = ok(await kaizen(["keys", "revoke", id ?? ""], withKey));
    expect(revoked).toMatch(
      new RegExp(
        `^Revoked ${id} \\(cli-reader\\) at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: refused at once on the instance that revoked it and everywhere within 30 s\\.\n$`,
      ),
    );
    const refused = await call(key, "GET", "/api/issues");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "Missing or malformed Authorization header" });
    const late = await kaizen(["issues", "list"], { KAIZEN_API_KEY: key });
    expect(late).toMatchObject({ status: 1, stdout: "" });
    expect(late.stderr).toContain("kaizen: 401 Missing or malformed Authorization header");

    const shown = JSON.parse(ok(await kaizen(["keys", "show", id ?? "", "--json"], withKey))) as {
      revokedAt: string | null;
    };
    expect(shown).toEqual(await apiData(`/api/keys/${id}`));
    expect(shown.revokedAt).not.toBeNull();
    const human = ok(await kaizen(["keys", "show", id ?? ""], withKey));
    expect(human).toContain(`cli-reader  (${id})`);
    expect(human).toContain(`revoked    ${(shown.revokedAt ?? "").replace("T", " ").slice(0, 16)}`);
    const row2 = ok(await kaizen(["keys", "list"], withKey))
      .split("\n")
      .find((line) => line.startsWith(`${id} `));
    // Used before its revocation: the list says when, and when it was revoked.
    expect(row2?.split(/ {2,}/).slice(5)).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      "never",
      (shown.revokedAt ?? "").replace("T", " ").slice(0, 16),
    ]);
  });

  it("narrows a key to a project with an expiry, and prints the created key as JSON", async () => {
    const project = await call(TEST_API_KEY, "POST", "/api/projects", { name: "cli keys" });
    expect(project.status).toBe(201);
    const { id: projectId } = ((await project.json()) as { data: { id: string } }).data;
    // Narrowed to the project, named by its name: the API has its id.
    const narrowed = ok(
      await kaizen(
        ["keys", "create", "fleet", "--scope", "dispatch", "--scope", "read", "--project", "cli keys"],
        withKey,
      ),
    );
    const narrowedId = /^Created key (key_\w{26}) \(fleet\): dispatch, read on (prj_\w{26}); never expires\.$/m.exec(
      narrowed,
    );
    expect(narrowedId?.[2], narrowed).toBe(projectId);
    expect(await apiData(`/api/keys/${narrowedId?.[1]}`)).toMatchObject({
      scopes: ["dispatch", "read"],
      projectIds: [projectId],
    });

    // --json: the API's created key, its text included; the expiry 30 days on.
    const before = Date.now();
    const created = JSON.parse(
      ok(await kaizen(["keys", "create", "fleet", "--scope", "read", "--expires", "30d", "--json"], withKey)),
    ) as { id: string; key: string; expiresAt: string; scopes: string[]; projectIds: string[] | null };
    expect(created).toMatchObject({ scopes: ["read"], projectIds: null });
    expect(created.key).toMatch(/^kaizen_[0-9a-f]{64}$/);
    expect(Date.parse(created.expiresAt) - before).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    expect(await apiData(`/api/keys/${created.id}`)).toEqual(
      Object.fromEntries(Object.entries(created).filter(([field]) => field !== "key")),
    );

    // A past expiry and an unknown project are the API's 400s, exit 1.
    const past = await kaizen(["keys", "create", "old", "--scope", "read", "--expires", "2020-01-01"], withKey);
    expect(past).toMatchObject({ status: 1, stdout: "" });
    expect(past.stderr).toContain("expiresAt: must be in the future");
    const unknown = await kaizen(["keys", "show", "key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W"], withKey);
    expect(unknown).toMatchObject({ status: 1, stdout: "" });
    expect(unknown.stderr).toContain("kaizen: 404 Key key_01J2ZQ5K8Y3M4N6P7R9S0T1V2W not found");
  });
});

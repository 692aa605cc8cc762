/**
 * `kaizen events …` against a real local server: destinations added, listed, shown, changed, given
 * a new secret and removed as a subprocess (`node bin/kaizen.js`), each compared with what the API
 * holds; `--json` printing exactly the API's data; unknown event names refused before any request.
 * Deliveries are written into the server's table as the change stream would write them, then listed
 * and retried through the CLI. `tail` runs in process (runTail) with an AbortController: events signed
 * by hand, and one sent by the server itself on a retry, are printed; a bad signature gets a 401 and
 * a warning; the abort removes its destination. Last, `tail` as a subprocess stops on SIGINT.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatEventLine, runTail } from "../../client/cli/commands/events-tail.js";
import { createOutput } from "../../client/cli/output.js";
import { createKaizenClient, type Schema } from "../../client/client.js";
import { EventDeliveryStore } from "../../core/src/events/event-delivery-store.js";
import { deliveryId, eventId } from "../../core/src/events/keys.js";
import { EVENT_TYPES, type EventType } from "../../core/src/events/schemas.js";
import { SIGNATURE_HEADER, signatureHeader, TIMESTAMP_HEADER } from "../../core/src/events/signing.js";
import { createDb, type Db } from "../../core/src/index.js";
import { type CliRun, cliRunner, apiData as fetchData } from "../helpers/cli.js";
import { dynamodbEndpoint, TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";
import { startReceiver } from "../helpers/receiver.js";

type Destination = Schema<"EventDestination">;
type DestinationWithSecret = Schema<"EventDestinationWithSecret">;
type Delivery = Schema<"EventDelivery">;

const tableName = `kaizen_cli_events_${Date.now()}`;
let server: TestServer;
let db: Db;
let kaizen: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  server = await startTestServer("cli_events", { config: { tableName } });
  // The server's own table, to write deliveries into as the change stream does.
  db = createDb({ tableName, region: "us-east-1", endpoint: dynamodbEndpoint() });
  kaizen = cliRunner(server);
});

afterAll(async () => {
  db?.client.destroy();
  await server?.stop();
});

const withKey = { KAIZEN_API_KEY: TEST_API_KEY };
const apiData = <T>(path: string) => fetchData<T>(server, path);

/** Every destination the API lists (they are at most 20). */
async function listed(): Promise<Destination[]> {
  return apiData<Destination[]>("/api/event-destinations?limit=100");
}

function ok(run: CliRun): string {
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

/**
 * Writes a delivery of a new event to `destinationId` as the change stream and its first attempt
 * would: that attempt failed (the receiver was not up), the next automatic one is due in an hour, so
 * nothing but a retry sends it meanwhile.
 */
async function seedDelivery(destinationId: string, type: EventType, data: Record<string, unknown>) {
  const now = new Date();
  const id = eventId(`record-${Math.random()}`, type, now.getTime());
  const body = JSON.stringify({ id, type, createdAt: now.toISOString(), data });
  const delivery = deliveryId(id, destinationId);
  const store = new EventDeliveryStore(db);
  const fields = { id: delivery, destinationId, eventId: id, eventType: type, body };
  expect(await store.create(fields, now, new Date(now.getTime() + 60_000))).toBe(true);
  await store.recordAttempt(
    delivery,
    {
      at: now.toISOString(),
      outcome: "failed",
      responseStatus: null,
      durationMs: 1,
      error: "connection failed: ECONNREFUSED",
      trigger: "automatic",
    },
    "pending",
    new Date(now.getTime() + 3_600_000).toISOString(),
  );
  return { deliveryId: delivery, eventId: id, body };
}

describe("kaizen events destinations", () => {
  it("adds, lists, shows, updates, rotates the secret of and removes a destination", async () => {
    const added = ok(
      await kaizen(
        [
          "events",
          "destinations",
          "add",
          "https://hooks.example.com/kaizen",
          "--events",
          "issue.created, dispatch.failed",
          "--description",
          "team chat",
        ],
        withKey,
      ),
    );
    const id = /^Registered event destination (dst_[0-9A-Z]{26}) for issue\.created, dispatch\.failed\.\n/.exec(
      added,
    )?.[1];
    expect(id).toBeDefined();
    const secret = /^secret {2}(whsec_[0-9a-f]{64})$/m.exec(added)?.[1];
    expect(secret).toBeDefined();
    expect(added).toContain("The secret is shown once: store it now");
    const stored = await apiData<Destination>(`/api/event-destinations/${id}`);
    expect(stored).toMatchObject({
      url: "https://hooks.example.com/kaizen",
      events: ["issue.created", "dispatch.failed"],
      description: "team chat",
      active: true,
    });

    // Two reads, side by side.
    const [listRun, showRun] = await Promise.all([
      kaizen(["events", "destinations", "list"], withKey),
      kaizen(["events", "destinations", "show", id ?? ""], withKey),
    ]);
    const table = ok(listRun).trimEnd().split("\n");
    expect(table[0]).toMatch(/^ID\s+URL\s+EVENTS\s+ACTIVE\s+FAILURES\s+DESCRIPTION$/);
    expect(table).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${id}\\s+https://hooks\\.example\\.com/kaizen\\s+issue\\.created, dispatch\\.failed\\s+yes\\s+0\\s+team chat$`,
        ),
      ),
    );
    expect(table.at(-1)).toMatch(/^1–\d+ of \d+ event destinations$/);
    expect(table.join("\n")).not.toContain(secret);

    const shown = ok(showRun);
    expect(shown).toMatch(new RegExp(`^Event destination ${id}\n`));
    expect(shown).toMatch(/^url\s+https:\/\/hooks\.example\.com\/kaizen$/m);
    expect(shown).toMatch(/^active\s+yes$/m);
    expect(shown).toMatch(/^failures\s+0 in a row since the last success$/m);
    expect(shown).not.toContain(secret);

    const updated = ok(
      await kaizen(
        ["events", "destinations", "update", id ?? "", "--all-events", "--inactive", "--description", ""],
        withKey,
      ),
    );
    expect(updated).toMatch(new RegExp(`^events\\s+every event \\(${EVENT_TYPES.length}\\)$`, "m"));
    expect(updated).toMatch(/^active\s+no$/m);
    expect(updated).toMatch(/^description\s+-$/m);
    expect(await apiData<Destination>(`/api/event-destinations/${id}`)).toMatchObject({
      events: [...EVENT_TYPES],
      active: false,
      description: null,
    });
    const back = ok(
      await kaizen(
        ["events", "destinations", "update", id ?? "", "--active", "--url", "http://localhost:9/x"],
        withKey,
      ),
    );
    expect(back).toMatch(/^url\s+http:\/\/localhost:9\/x$/m);
    expect(back).toMatch(/^active\s+yes$/m);

    const rotated = ok(await kaizen(["events", "destinations", "rotate-secret", id ?? ""], withKey));
    const newSecret = /^secret {2}(whsec_[0-9a-f]{64})$/m.exec(rotated)?.[1];
    expect(newSecret).toBeDefined();
    expect(newSecret).not.toBe(secret);
    expect(rotated).toContain("The secret is shown once: store it now");
    expect(rotated).toMatch(/The old secret signs beside it for 24 h more \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    const afterRotation = await apiData<Destination>(`/api/event-destinations/${id}`);
    expect(afterRotation.previousSecretExpiresAt).not.toBeNull();
    expect(ok(await kaizen(["events", "destinations", "show", id ?? ""], withKey))).toMatch(
      /^previous secret\s+still signs until \d{4}-\d\d-\d\d \d\d:\d\d$/m,
    );

    expect(ok(await kaizen(["events", "destinations", "remove", id ?? ""], withKey))).toBe(
      `Removed event destination ${id}.\n`,
    );
    expect((await listed()).map((d) => d.id)).not.toContain(id);
    const gone = await kaizen(["events", "destinations", "show", id ?? ""], withKey);
    expect(gone).toMatchObject({ status: 1, stdout: "" });
    expect(gone.stderr.split("\n")[0]).toMatch(/^kaizen: 404 /);
  });

  it("prints exactly the API's data with --json, the secret included where the API shows it", async () => {
    const added = await kaizen(
      ["events", "destinations", "add", "https://hooks.example.com/json", "--all-events", "--inactive", "--json"],
      withKey,
    );
    const made = JSON.parse(ok(added)) as DestinationWithSecret;
    const { secret, ...destination } = made;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(destination).toEqual(await apiData<Destination>(`/api/event-destinations/${made.id}`));
    expect(destination).toMatchObject({ events: [...EVENT_TYPES], active: false });

    const [list, shown] = await Promise.all([
      kaizen(["events", "destinations", "list", "--json", "--limit", "100"], withKey),
      kaizen(["events", "destinations", "show", made.id, "--json"], withKey),
    ]);
    expect(JSON.parse(ok(list))).toEqual(await listed());
    expect(JSON.parse(ok(shown))).toEqual(destination);

    const updated = JSON.parse(
      ok(await kaizen(["events", "destinations", "update", made.id, "--events", "issue.created", "--json"], withKey)),
    ) as Destination;
    expect(updated).toEqual(await apiData<Destination>(`/api/event-destinations/${made.id}`));
    expect(updated.events).toEqual(["issue.created"]);

    const rotated = JSON.parse(
      ok(await kaizen(["events", "destinations", "rotate-secret", made.id, "--json"], withKey)),
    ) as DestinationWithSecret;
    const { secret: newSecret, ...afterRotation } = rotated;
    expect(newSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newSecret).not.toBe(secret);
    expect(afterRotation).toEqual(await apiData<Destination>(`/api/event-destinations/${made.id}`));

    expect(ok(await kaizen(["events", "destinations", "remove", made.id, "--json"], withKey))).toBe("null\n");
    expect((await listed()).map((d) => d.id)).not.toContain(made.id);
  });

  it("refuses unknown event names before any request, as every usage error", async () => {
    const before = await listed();
    const [bad, none, both, badUpdate, badTail, refused] = await Promise.all([
      kaizen(
        ["events", "destinations", "add", "https://h.example.com/", "--events", "issue.created,issue.deleted"],
        withKey,
      ),
      kaizen(["events", "destinations", "add", "https://h.example.com/"], withKey),
      kaizen(
        ["events", "destinations", "add", "https://h.example.com/", "--events", "issue.created", "--all-events"],
        withKey,
      ),
      kaizen(
        ["events", "destinations", "update", "dst_01ARZ3NDEKTSV4RRFFQ69G5FAV", "--events", "dispatch.done"],
        withKey,
      ),
      kaizen(["events", "tail", "--events", "issue.moved"], withKey),
      // What the API refuses is printed as every API error: its message and details, exit status 1.
      kaizen(["events", "destinations", "add", "http://hooks.example.com/", "--events", "issue.created"], withKey),
    ]);
    const types = EVENT_TYPES.join(", ");
    for (const [run, name, command] of [
      [bad, "issue.deleted", "events destinations add"],
      [badUpdate, "dispatch.done", "events destinations update"],
      [badTail, "issue.moved", "events tail"],
    ] as const) {
      expect(run).toMatchObject({ status: 2, stdout: "" });
      expect(run.stderr).toBe(
        `kaizen: --events: ${name} is not an event type; the types are ${types}\nRun kaizen ${command} --help for the flags.\n`,
      );
    }
    expect(none).toMatchObject({ status: 2, stdout: "" });
    expect(none.stderr).toContain("kaizen: Which events? Give --events a,b,… or --all-events");
    expect(both).toMatchObject({ status: 2, stdout: "" });
    expect(both.stderr).toContain("mutually exclusive");
    expect(refused).toMatchObject({ status: 1, stdout: "" });
    expect(refused.stderr).toMatch(/^kaizen: 400 .+\n {2}url: must be https \(plain http only to localhost/);
    // None of them made a destination.
    expect(await listed()).toEqual(before);
  });
});

describe("kaizen events deliveries and retry", () => {
  it("lists a destination's deliveries with their attempts, and retries one, printing how it went", async () => {
    const failing = await startReceiver(() => 500);
    try {
      const made = JSON.parse(
        ok(await kaizen(["events", "destinations", "add", failing.url, "--all-events", "--json"], withKey)),
      ) as DestinationWithSecret;
      const empty = ok(await kaizen(["events", "deliveries", made.id], withKey));
      expect(empty).toBe("No deliveries.\n");

      const seeded = await seedDelivery(made.id, "issue.status_changed", {
        issue: { identifier: "KZN-12", title: "Checkout" },
        from: "todo",
        to: "in_progress",
      });
      const retried = ok(await kaizen(["events", "retry", made.id, seeded.deliveryId], withKey));
      expect(retried).toMatch(
        new RegExp(
          `^Retried ${seeded.deliveryId} \\(issue\\.status_changed, ${seeded.eventId}\\): failed in \\d+ ms: HTTP 500; the delivery stays pending; next automatic attempt \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\.\n$`,
        ),
      );
      expect(failing.received).toHaveLength(1);
      expect(failing.received[0]?.body).toBe(seeded.body);

      const table = ok(await kaizen(["events", "deliveries", made.id], withKey))
        .trimEnd()
        .split("\n");
      expect(table[0]).toMatch(/^DELIVERY\s+EVENT\s+STATUS\s+ATTEMPTS\s+LAST ATTEMPT\s+NEXT ATTEMPT$/);
      expect(table[1]).toMatch(
        new RegExp(
          `^${seeded.deliveryId}\\s+issue\\.status_changed\\s+pending\\s+2\\s+HTTP 500\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`,
        ),
      );
      expect(table[2]).toBe("1–1 of 1 deliveries");

      const [json, retriedJson, missing] = await Promise.all([
        kaizen(["events", "deliveries", made.id, "--json"], withKey),
        apiData<Delivery[]>(`/api/event-destinations/${made.id}/deliveries`),
        kaizen(["events", "retry", made.id, "dlv_01ARZ3NDEKTSV4RRFFQ69G5FAV"], withKey),
      ]);
      expect(JSON.parse(ok(json))).toEqual(retriedJson);

      expect(missing).toMatchObject({ status: 1, stdout: "" });
      expect(missing.stderr.split("\n")[0]).toBe(
        `kaizen: 404 Delivery dlv_01ARZ3NDEKTSV4RRFFQ69G5FAV of event destination ${made.id} not found`,
      );
      ok(await kaizen(["events", "destinations", "remove", made.id], withKey));
    } finally {
      await failing.close();
    }
  });
});

/** An Output over buffers, as the CLI makes one over the process's streams. */
function captured(json = false) {
  const out: string[] = [];
  const err: string[] = [];
  const output = createOutput({
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
    json,
  });
  return { output, out, err };
}

/** Starts runTail in process and resolves once it registered its destination. */
async function startTail(events: EventType[], json = false) {
  const { output, out, err } = captured(json);
  const controller = new AbortController();
  const client = createKaizenClient({ baseUrl: server.url, token: TEST_API_KEY });
  let ready: (value: { url: string; destination: DestinationWithSecret }) => void = () => undefined;
  const registered = new Promise<{ url: string; destination: DestinationWithSecret }>((resolve) => {
    ready = resolve;
  });
  const done = runTail(client, { events, host: "127.0.0.1", port: 0, onReady: ready }, output, controller.signal);
  const { url, destination } = await Promise.race([
    registered,
    done.then(() => {
      throw new Error("runTail ended before it registered");
    }),
  ]);
  return { url, destination, out, err, done, stop: () => controller.abort() };
}

/** POSTs `event` to `url` signed with `secret` (at `timestamp`), as Kaizen sends events. */
async function post(url: string, event: object, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify(event);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: signatureHeader([secret], timestamp, body),
    },
    body,
  });
  return response.status;
}

describe("kaizen events tail", () => {
  it("registers a destination, prints signed events, refuses bad signatures, and removes it when stopped", async () => {
    const tail = await startTail(["issue.status_changed", "dispatch.completed"]);
    const { url, destination } = tail;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(tail.out).toEqual([
      `Listening on ${url}: registered destination ${destination.id} for issue.status_changed, dispatch.completed. Ctrl-C removes it.\n`,
    ]);
    const registered = (await listed()).find((d) => d.id === destination.id);
    expect(registered).toMatchObject({ url, events: ["issue.status_changed", "dispatch.completed"], active: true });
    expect(registered?.description).toMatch(/^kaizen events tail on .+ \(pid \d+\)$/);

    const moved = {
      id: "evt_01KAAAAAAAAAAAAAAAAAAAAAAA",
      type: "issue.status_changed",
      createdAt: "2026-11-25T14:05:09.000Z",
      data: { issue: { identifier: "KZN-12", title: "Checkout" }, from: "todo", to: "in_progress" },
    };
    expect(await post(url, moved, destination.secret)).toBe(204);
    expect(tail.out[1]).toBe(
      `14:05:09  issue.status_changed    KZN-12 todo → in_progress  evt_01KAAAAAAAAAAAAAAAAAAAAAAA\n`,
    );
    expect(tail.out[1]).toBe(`${formatEventLine(moved, false)}\n`);
    const completed = {
      id: "evt_01KBBBBBBBBBBBBBBBBBBBBBBB",
      type: "dispatch.completed",
      createdAt: "2026-11-25T14:06:00.000Z",
      data: { dispatch: { id: "dsp_01KCCCCCCCCCCCCCCCCCCCCCCC", agent: "agent-1", status: "completed" } },
    };
    expect(await post(url, completed, destination.secret)).toBe(204);
    expect(tail.out[2]).toBe(
      "14:06:00  dispatch.completed      dispatch dsp_01KCCCCCCCCCCCCCCCCCCCCCCC by agent-1 completed  evt_01KBBBBBBBBBBBBBBBBBBBBBBB\n",
    );

    // Signed with another secret, or not at all: 401, a warning, nothing printed on stdout.
    expect(await post(url, moved, `whsec_${"0".repeat(64)}`)).toBe(401);
    const unsigned = await fetch(url, { method: "POST", body: JSON.stringify(moved) });
    expect(unsigned.status).toBe(401);
    expect(tail.out).toHaveLength(3);
    expect(tail.err).toHaveLength(2);
    expect(tail.err[0]).toMatch(
      /^kaizen: warning: answered 401 to POST \/ from 127\.0\.0\.1: its Kaizen-Signature-256 is missing or not by this destination's secret\n$/,
    );

    // The server's own delivery, signed by the server, arrives and is printed too.
    const seeded = await seedDelivery(destination.id, "dispatch.completed", completed.data);
    const retried = ok(await kaizen(["events", "retry", destination.id, seeded.deliveryId], withKey));
    expect(retried).toMatch(/: succeeded in \d+ ms: HTTP 204; the delivery is succeeded\.\n$/);
    expect(tail.out[3]).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d  dispatch\\.completed      dispatch dsp_01KCCCCCCCCCCCCCCCCCCCCCCC by agent-1 completed  ${seeded.eventId}\n$`,
      ),
    );

    tail.stop();
    await tail.done;
    expect(tail.out.at(-1)).toBe(`Removed destination ${destination.id}.\n`);
    expect((await listed()).map((d) => d.id)).not.toContain(destination.id);
    await expect(fetch(url, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("with --json prints each event's body as one line, and where it listens on stderr", async () => {
    const tail = await startTail([...EVENT_TYPES], true);
    expect(tail.out).toEqual([]);
    expect(tail.err).toEqual([
      `Listening on ${tail.url}: registered destination ${tail.destination.id} for every event (${EVENT_TYPES.length}). Ctrl-C removes it.\n`,
    ]);
    const decided = {
      id: "evt_01KDDDDDDDDDDDDDDDDDDDDDDD",
      type: "experiment.decided",
      createdAt: "2026-11-25T15:00:00.000Z",
      data: { experiment: { id: "exp_01KEEEEEEEEEEEEEEEEEEEEEEE", status: "promoted" } },
    };
    expect(await post(tail.url, decided, tail.destination.secret)).toBe(204);
    expect(tail.out).toEqual([`${JSON.stringify(decided)}\n`]);
    tail.stop();
    await tail.done;
    expect(tail.out).toHaveLength(1);
    expect(tail.err.at(-1)).toBe(`Removed destination ${tail.destination.id}.\n`);
    expect((await listed()).map((d) => d.id)).not.toContain(tail.destination.id);
  });

  it("as a command: prints where it listens, and removes its destination and exits 0 on Ctrl-C", async () => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, "..", "..", "bin", "kaizen.js"), "events", "tail"],
      {
        cwd: server.dir,
        env: { PATH: process.env.PATH ?? "", HOME: server.dir, KAIZEN_URL: server.url, KAIZEN_API_KEY: TEST_API_KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const id = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = new RegExp(
          `registered destination (dst_[0-9A-Z]{26}) for every event \\(${EVENT_TYPES.length}\\)\\. Ctrl-C removes it\\.\n`,
        ).exec(stdout);
        if (found?.[1]) resolve(found[1]);
      });
      exited.then((code) => reject(new Error(`kaizen events tail exited with ${code}: ${stderr}`)));
    });
    expect(stdout).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+\/: registered destination /);
    expect((await listed()).map((d) => d.id)).toContain(id);
    // Twice, as a terminal's Ctrl-C reaches it when npx forwards it too: it still removes its destination.
    child.kill("SIGINT");
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toMatch(new RegExp(`\nRemoved destination ${id}\\.\n$`));
    expect((await listed()).map((d) => d.id)).not.toContain(id);
  });
});

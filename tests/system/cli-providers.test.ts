/**
 * `kaizen providers test` as a subprocess (`node bin/kaizen.js`) against a real local server: each
 * provider's sample delivery, signed under the provider's own headers, is verified and recorded;
 * `--open` opens an issue and the next run joins it; wrong and missing secrets, an unset receiver
 * and an unreachable server each fail with their exit status and what to do about it.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCodehost, signErrortracker } from "../../core/src/webhooks/verify.js";
import { freePort } from "../../infra/local/dynamodb.js";
import { type CliRun, cliRunner, apiData as fetchData } from "../helpers/cli.js";
import { TEST_WEBHOOK_SECRETS } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The three receivers' secrets under the variables the server reads, as an operator's shell has them. */
const SECRETS = {
  CODEHOST_WEBHOOK_SECRET: TEST_WEBHOOK_SECRETS.codehost,
  ERRORTRACKER_CLIENT_SECRET: TEST_WEBHOOK_SECRETS.errortracker,
  ANALYTICS_WEBHOOK_SECRET: TEST_WEBHOOK_SECRETS.analytics,
};

let server: TestServer;

let kaizen: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  server = await startTestServer("cli_providers");
  kaizen = cliRunner(server);
});

afterAll(() => server?.stop());

/** The API's `data` for a GET with the service key, to compare with what the CLI printed. */
const apiData = (path: string) => fetchData<Record<string, unknown>>(server, path);

interface Ingest {
  signal: {
    id: string;
    source: string;
    type: string;
    severity: string;
    action: string;
    fingerprint: string;
    deliveryId: string | null;
    issueId: string | null;
    headers: Record<string, string>;
  };
  issue: { id: string; identifier: string; status: string; title: string; signalCount: number } | null;
  duplicate: boolean;
}

/** The signal (and its issue) as the API shows them now, in the shape a receiver answers with. */
async function ingestFromApi(ingest: Ingest): Promise<unknown> {
  const { payload: _payload, ...signal } = await apiData(`/api/signals/${ingest.signal.id}`);
  if (ingest.signal.issueId === null) return { signal, issue: null, duplicate: false };
  const issue = await apiData(`/api/issues/${ingest.signal.issueId}`);
  const { parent: _p, children: _c, relations: _r, signals: _s, ...summary } = issue;
  return { signal, issue: summary, duplicate: false };
}

/** A request as it reached the server: what the CLI put on the wire. */
interface Sent {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Runs `kaizen …` through a recording proxy in front of the server, and resolves with the run and
 * the one request the CLI sent (forwarded unchanged, so the server still answers it).
 */
async function kaizenRecorded(args: string[], env: Record<string, string>): Promise<{ run: CliRun; sent: Sent[] }> {
  const sent: Sent[] = [];
  const proxy = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    sent.push({ path: request.url ?? "", headers: request.headers, body });
    // The connection's own headers are the proxy's to set; every other one goes on as it came.
    const headers = Object.entries(request.headers).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && !HOP_HEADERS.has(entry[0]),
    );
    const answer = await fetch(`${server.url}${request.url}`, { method: request.method, headers, body });
    response.writeHead(answer.status, answer.statusText, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((listening) => proxy.listen(0, "127.0.0.1", listening));
  try {
    const run = await kaizen(args, env, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
    return { run, sent };
  } finally {
    await new Promise((closed) => proxy.close(closed));
  }
}

const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding"]);

/** Headers that only the neutral form of a delivery carries: the provider's own names must be used instead. */
const NEUTRAL_HEADER = /^x-(codehost|errortracker)-/;

describe("kaizen providers test over a real local server", () => {
  it.each([
    { provider: "github", source: "codehost", type: "ping", event: "X-Codehost-Event" },
    { provider: "sentry", source: "errortracker", type: "installation.created", event: "X-Errortracker-Hook-Resource" },
    { provider: "posthog", source: "analytics", type: "kaizen_test", event: undefined },
  ])(
    "$provider: the setup delivery verifies and is recorded with no issue; --json is the API's data",
    async ({ provider, source, type, event }) => {
      // Two runs side by side: each is a delivery of its own.
      const [run, again] = await Promise.all([
        kaizen(["providers", "test", provider, "--json"], SECRETS),
        kaizen(["providers", "test", provider], SECRETS),
      ]);
      expect(run).toMatchObject({ status: 0, stderr: "" });
      const ingest = JSON.parse(run.stdout) as Ingest;
      expect(ingest.signal).toMatchObject({ source, type, action: "recorded", issueId: null });
      expect(ingest.signal.deliveryId).toMatch(UUID);
      expect(ingest).toMatchObject({ issue: null, duplicate: false });
      // The provider's own headers were read: the event name came from them, kept under the neutral name.
      if (event) expect(ingest.signal.headers[event]).toBe(type.split(".")[0]);
      expect(ingest).toEqual(await ingestFromApi(ingest));
      expect(run.stdout).toBe(`${JSON.stringify(ingest, null, 2)}\n`);

      // Another run is another delivery (a fresh id), not a redelivery of the first.
      expect(again).toMatchObject({ status: 0, stderr: "" });
      expect(again.stdout).toMatch(new RegExp(`^type\\s+${type}$`, "m"));
      expect(again.stdout).toMatch(/^action\s+recorded$/m);
      expect(again.stdout).toMatch(/^duplicate\s+no$/m);
      expect(again.stdout).toMatch(/^issue\s+-$/m);
      expect(again.stdout).toMatch(/: 201 Created\n/);
      const delivery = /^delivery\s+(\S+)$/m.exec(again.stdout)?.[1];
      expect(delivery).toMatch(UUID);
      expect(delivery).not.toBe(ingest.signal.deliveryId);
      expect(again.stdout).not.toContain(ingest.signal.id);
      expect(again.stdout).not.toContain("\u001b[");
    },
  );

  it("sends each provider's own headers, signed over the exact bytes sent, with no API key", async () => {
    const before = Math.floor(Date.now() / 1000);
    const [github, sentry, posthog] = await Promise.all([
      kaizenRecorded(["providers", "test", "github"], SECRETS),
      kaizenRecorded(["providers", "test", "sentry"], SECRETS),
      kaizenRecorded(["providers", "test", "posthog"], SECRETS),
    ]);
    for (const { run, sent } of [github, sentry, posthog]) {
      expect(run).toMatchObject({ status: 0, stderr: "" });
      expect(sent).toHaveLength(1);
      const [request] = sent;
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(request?.headers.authorization).toBeUndefined();
      expect(Object.keys(request?.headers ?? {}).filter((name) => NEUTRAL_HEADER.test(name))).toEqual([]);
    }

    const hub = github.sent[0];
    expect(hub?.path).toBe("/api/signals/codehost");
    expect(hub?.headers["x-hub-signature-256"]).toBe(signCodehost(hub?.body ?? "", TEST_WEBHOOK_SECRETS.codehost));
    expect(hub?.headers["x-github-event"]).toBe("ping");
    expect(hub?.headers["x-github-delivery"]).toMatch(UUID);
    expect(hub?.headers["user-agent"]).toMatch(/^GitHub-Hookshot\//);
    const ping = JSON.parse(hub?.body ?? "") as { hook_id: number };
    expect(ping).toMatchObject({
      zen: expect.any(String),
      hook: { type: "Repository", active: true, config: { content_type: "json", url: expect.any(String) } },
      repository: { full_name: "kaizen-test/setup-check" },
      sender: { login: expect.any(String) },
    });
    expect(hub?.headers["x-github-hook-id"]).toBe(String(ping.hook_id));

    const hook = sentry.sent[0];
    expect(hook?.path).toBe("/api/signals/errortracker");
    const canonical = JSON.stringify(JSON.parse(hook?.body ?? ""));
    expect(hook?.headers["sentry-hook-signature"]).toBe(signErrortracker(canonical, TEST_WEBHOOK_SECRETS.errortracker));
    expect(hook?.headers["sentry-hook-resource"]).toBe("installation");
    expect(hook?.headers["request-id"]).toMatch(UUID);
    const timestamp = Number(hook?.headers["sentry-hook-timestamp"]);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(JSON.parse(hook?.body ?? "")).toMatchObject({
      action: "created",
      installation: { uuid: expect.any(String) },
      data: { installation: { organization: { slug: expect.any(String) }, app: { slug: expect.any(String) } } },
      actor: { type: "user" },
    });

    const destination = posthog.sent[0];
    expect(destination?.path).toBe("/api/signals/analytics");
    expect(destination?.headers["x-analytics-secret"]).toBe(TEST_WEBHOOK_SECRETS.analytics);
    const event = JSON.parse(destination?.body ?? "") as { event: { uuid: string; event: string }; person: unknown };
    expect(event).toMatchObject({ event: { event: "kaizen_test", properties: { severity: "low" } }, person: {} });
    expect(destination?.headers["x-analytics-delivery"]).toBe(event.event.uuid);
  });

  it("github --open opens an issue in triage, and the next --open joins that issue", async () => {
    const first = await kaizen(["providers", "test", "github", "--open", "--json"], SECRETS);
    expect(first).toMatchObject({ status: 0, stderr: "" });
    const opened = JSON.parse(first.stdout) as Ingest;
    expect(opened.signal).toMatchObject({ source: "codehost", type: "issues.opened", action: "opened" });
    expect(opened.issue).toMatchObject({ status: "triage", signalCount: 1 });
    expect(opened.signal.issueId).toBe(opened.issue?.id);
    expect(opened).toEqual(await ingestFromApi(opened));

    // The setup ping goes beside the second --open: it joins nothing either way.
    const [second, ping] = await Promise.all([
      kaizen(["providers", "test", "github", "--open"], SECRETS),
      kaizen(["providers", "test", "github", "--json"], SECRETS),
    ]);
    expect(second).toMatchObject({ status: 0, stderr: "" });
    expect(second.stdout).toMatch(/^action\s+grouped$/m);
    expect(second.stdout).toMatch(new RegExp(`^issue\\s+${opened.issue?.identifier} \\(triage\\) "`, "m"));
    expect(second.stdout).toMatch(new RegExp(`^fingerprint\\s+${opened.signal.fingerprint}$`, "m"));
    expect(await apiData(`/api/issues/${opened.issue?.id}`)).toMatchObject({ status: "triage", signalCount: 2 });

    // The setup ping still opens nothing: it is another fingerprint than the test issue's.
    expect(JSON.parse(ping.stdout)).toMatchObject({ signal: { type: "ping", action: "recorded" }, issue: null });
  });

  it.each([
    { provider: "sentry", type: "issue.created", setup: "installation.created" },
    { provider: "posthog", type: "kaizen_test_alert", setup: "kaizen_test" },
  ])(
    "$provider --open opens a high-severity issue that the setup delivery does not join",
    async ({ provider, type, setup }) => {
      // One after the other: the second must find the issue the first opened (the setup delivery
      // goes beside the second).
      const first = await kaizen(["providers", "test", provider, "--open", "--json"], SECRETS);
      const [second, setupRun] = await Promise.all([
        kaizen(["providers", "test", provider, "--open", "--json"], SECRETS),
        kaizen(["providers", "test", provider, "--json"], SECRETS),
      ]);
      expect(first).toMatchObject({ status: 0, stderr: "" });
      const opened = JSON.parse(first.stdout) as Ingest;
      expect(opened.signal).toMatchObject({ type, severity: "high", action: "opened" });
      expect(opened.issue?.status).toBe("triage");
      const joined = JSON.parse(second.stdout) as Ingest;
      expect(joined.signal.action).toBe("grouped");
      expect(joined.issue?.id).toBe(opened.issue?.id);

      const plain = JSON.parse(setupRun.stdout) as Ingest;
      expect(plain.signal).toMatchObject({ type: setup, action: "recorded" });
      expect(plain.issue).toBeNull();
    },
  );

  it("a wrong secret is the server's 401 with a hint, exit 1; --secret wins over the variable", async () => {
    const [github, sentry, given] = await Promise.all([
      kaizen(["providers", "test", "github", "--secret", "not-the-secret"], SECRETS),
      kaizen(["providers", "test", "sentry"], { ERRORTRACKER_CLIENT_SECRET: "not-the-secret" }),
      kaizen(["providers", "test", "posthog", "--secret", TEST_WEBHOOK_SECRETS.analytics, "--json"]),
    ]);
    expect(github).toMatchObject({ status: 1, stdout: "" });
    expect(github.stderr).toMatch(/^kaizen: 401 Invalid webhook signature\n/);
    expect(github.stderr).toContain("from --secret");
    expect(github.stderr).toContain("CODEHOST_WEBHOOK_SECRET");
    expect(github.stderr).toMatch(/\(request [\w-]+\)\n$/);
    expect(github.stderr).not.toContain("KAIZEN_API_KEY");

    expect(sentry).toMatchObject({ status: 1, stdout: "" });
    expect(sentry.stderr).toMatch(/^kaizen: 401 Invalid webhook signature\n/);
    expect(sentry.stderr).toContain("from ERRORTRACKER_CLIENT_SECRET");
    expect(sentry.stderr).toContain("Client Secret");

    expect(given).toMatchObject({ status: 0, stderr: "" });
    expect(JSON.parse(given.stdout)).toMatchObject({ signal: { type: "kaizen_test", action: "recorded" } });
  });

  it("no secret is a usage error naming both ways to give it, exit 2, nothing sent", async () => {
    const [github, posthog, blank] = await Promise.all([
      kaizen(["providers", "test", "github"]),
      kaizen(["providers", "test", "posthog", "--json"], { CODEHOST_WEBHOOK_SECRET: TEST_WEBHOOK_SECRETS.codehost }),
      kaizen(["providers", "test", "sentry"], { ERRORTRACKER_CLIENT_SECRET: "  " }),
    ]);
    for (const [run, variable] of [
      [github, "CODEHOST_WEBHOOK_SECRET"],
      [posthog, "ANALYTICS_WEBHOOK_SECRET"],
      [blank, "ERRORTRACKER_CLIENT_SECRET"],
    ] as const) {
      expect(run).toMatchObject({ status: 2, stdout: "" });
      expect(run.stderr).toMatch(/^kaizen: No secret/);
      expect(run.stderr).toContain("--secret");
      expect(run.stderr).toContain(variable);
    }
  });

  it("an unknown provider is a usage error; --help names the secrets and the fixed test issue", async () => {
    const [unknown, help] = await Promise.all([
      kaizen(["providers", "test", "gitlab"], SECRETS),
      kaizen(["providers", "test", "--help"]),
    ]);
    expect(unknown).toMatchObject({ status: 2, stdout: "" });
    expect(unknown.stderr).toContain("Run kaizen providers test --help for the flags.");

    expect(help.status).toBe(0);
    for (const text of [
      "--secret",
      "--open",
      "--json",
      "CODEHOST_WEBHOOK_SECRET",
      "ERRORTRACKER_CLIENT_SECRET",
      "ANALYTICS_WEBHOOK_SECRET",
      "join that same issue",
    ])
      expect(help.stdout).toContain(text);
  });

  it("an unreachable server and a receiver without its secret each say what to do, exit 1", async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await kaizen(["providers", "test", "github"], SECRETS, nowhere);
    expect(unreachable).toMatchObject({ status: 1, stdout: "" });
    expect(unreachable.stderr).toContain(`not reachable at ${nowhere}/api/signals/codehost`);

    const unset = await startTestServer("cli_providers_unset", {
      config: { webhookSecrets: { ...TEST_WEBHOOK_SECRETS, errortracker: undefined } },
    });
    try {
      const refused = await kaizen(["providers", "test", "sentry"], SECRETS, unset.url);
      expect(refused).toMatchObject({ status: 1, stdout: "" });
      expect(refused.stderr).toMatch(/^kaizen: 500 ERRORTRACKER_CLIENT_SECRET is not configured\n/);
      expect(refused.stderr).toContain("start the server with ERRORTRACKER_CLIENT_SECRET set");
    } finally {
      await unset.stop();
    }
  });
});

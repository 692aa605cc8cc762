import { describe, expect, it } from "vitest";
import { classifyWebhookDelivery, type Severity } from "../../../core/src/signals/rules.js";
import { codehostExamples, deliveryOf } from "../../helpers/fixtures.js";

const DELIVERY_ID = "72d3162e-cc78-11e3-81ab-4c9367dc0958";

function classify(event: string | undefined, body: unknown, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { "X-Codehost-Delivery": DELIVERY_ID, ...extra };
  if (event !== undefined) headers["X-Codehost-Event"] = event;
  return classifyWebhookDelivery(deliveryOf("codehost", headers, body));
}

const repository = { full_name: "acme/shop" };

describe("codehost event names and delivery ids", () => {
  it.each([
    ["issues", { action: "opened" }, "issues.opened"],
    ["check_run", { action: "completed" }, "check_run.completed"],
    ["push", { ref: "refs/heads/main" }, "push"],
    ["push", { action: "" }, "push"],
    ["push", { action: 3 }, "push"],
    [undefined, { action: "opened" }, "unknown"],
  ])("%s with %j is %s", (event, body, type) => {
    expect(classify(event, body).type).toBe(type);
  });

  it("takes the delivery id from X-Codehost-Delivery, an empty one as none", () => {
    expect(classify("ping", {}).deliveryId).toBe(DELIVERY_ID);
    expect(classifyWebhookDelivery(deliveryOf("codehost", { "X-Codehost-Event": "ping" }, {})).deliveryId).toBeNull();
    expect(classifyWebhookDelivery(deliveryOf("codehost", { "X-Codehost-Delivery": "" }, {})).deliveryId).toBeNull();
  });

  it("keeps the event, delivery and hook id headers under their canonical names, whatever case they came in", () => {
    const signal = classifyWebhookDelivery(
      deliveryOf(
        "codehost",
        {
          "x-codehost-event": "ping",
          "X-CODEHOST-DELIVERY": DELIVERY_ID,
          "x-codehost-hook-id": "109948940",
          "X-Codehost-Signature-256": "sha256=00",
          "User-Agent": "Codehost-Hookshot/044aadd",
        },
        { zen: "Design for failure." },
      ),
    );
    expect(signal.headers).toEqual({
      "X-Codehost-Event": "ping",
      "X-Codehost-Delivery": DELIVERY_ID,
      "X-Codehost-Hook-ID": "109948940",
    });
  });
});

describe("codehost fingerprints and severities (docs/api.md#fingerprints-and-severity)", () => {
  const ciFailure = (event: string, run: Record<string, unknown>) => ({
    action: "completed",
    repository,
    [event]: run,
  });

  it.each<[string, string | undefined, unknown, string, Severity]>([
    [
      "an issue",
      "issues",
      { action: "opened", repository, issue: { number: 12 } },
      "codehost:issue:acme/shop#12",
      "medium",
    ],
    [
      "a closed issue",
      "issues",
      { action: "closed", repository, issue: { number: 12 } },
      "codehost:issue:acme/shop#12",
      "medium",
    ],
    [
      "a pull request",
      "pull_request",
      { action: "opened", repository, number: 7, pull_request: { number: 7 } },
      "codehost:pr:acme/shop#7",
      "low",
    ],
    [
      "a pull request numbered only at the top",
      "pull_request",
      { action: "edited", repository, number: 8 },
      "codehost:pr:acme/shop#8",
      "low",
    ],
    [
      "a failed workflow run",
      "workflow_run",
      ciFailure("workflow_run", { name: "CI", head_branch: "main", conclusion: "failure" }),
      "codehost:ci:acme/shop:CI:main",
      "high",
    ],
    [
      "a timed-out check run",
      "check_run",
      ciFailure("check_run", { name: "lint", conclusion: "timed_out", check_suite: { head_branch: "feat/x" } }),
      "codehost:ci:acme/shop:lint:feat/x",
      "high",
    ],
    [
      "a failed check suite (named by its app)",
      "check_suite",
      ciFailure("check_suite", { app: { name: "Buildkite" }, head_branch: "main", conclusion: "failure" }),
      "codehost:ci:acme/shop:Buildkite:main",
      "high",
    ],
    [
      "a failed workflow run named only by its workflow",
      "workflow_run",
      { ...ciFailure("workflow_run", { head_branch: "feat/y", conclusion: "failure" }), workflow: { name: "Deploy" } },
      "codehost:ci:acme/shop:Deploy:feat/y",
      "high",
    ],
    [
      "a failed run without name or branch",
      "workflow_run",
      ciFailure("workflow_run", { name: "", conclusion: "failure" }),
      "codehost:ci:acme/shop:unknown:unknown",
      "high",
    ],
    [
      "a successful run",
      "workflow_run",
      ciFailure("workflow_run", { name: "CI", head_branch: "main", conclusion: "success" }),
      "codehost:workflow_run:acme/shop",
      "low",
    ],
    [
      "a failure conclusion on a run not completed",
      "check_run",
      { action: "rerequested", repository, check_run: { name: "lint", conclusion: "failure" } },
      "codehost:check_run:acme/shop",
      "low",
    ],
    [
      "a cancelled run",
      "check_suite",
      ciFailure("check_suite", { conclusion: "cancelled" }),
      "codehost:check_suite:acme/shop",
      "low",
    ],
    [
      "a code scanning alert",
      "code_scanning_alert",
      { action: "created", repository, alert: { number: 10 } },
      "codehost:security:acme/shop:10",
      "critical",
    ],
    [
      "a fixed code scanning alert",
      "code_scanning_alert",
      { action: "fixed", repository, alert: { number: 10 } },
      "codehost:security:acme/shop:10",
      "critical",
    ],
    [
      "a secret scanning alert",
      "secret_scanning_alert",
      { action: "created", repository, alert: { number: 3 } },
      "codehost:security:acme/shop:3",
      "critical",
    ],
    [
      "a dependabot alert",
      "dependabot_alert",
      { action: "created", repository, alert: { number: 20 } },
      "codehost:security:acme/shop:20",
      "critical",
    ],
    [
      "a vulnerability alert known by id",
      "repository_vulnerability_alert",
      { action: "create", repository, alert: { id: 91095730 } },
      "codehost:security:acme/shop:91095730",
      "critical",
    ],
    [
      "a global security advisory",
      "security_advisory",
      { action: "published", security_advisory: { ghsa_id: "GHSA-rf4j-j272-fj86" } },
      "codehost:security:unknown:GHSA-rf4j-j272-fj86",
      "critical",
    ],
    [
      "an alert without an id",
      "dependabot_alert",
      { action: "created", repository, alert: {} },
      "codehost:security:acme/shop:unknown",
      "critical",
    ],
    ["a push", "push", { ref: "refs/heads/main", repository }, "codehost:push:acme/shop", "low"],
    [
      "an organization ping",
      "ping",
      { zen: "Mind your words.", organization: { login: "acme" } },
      "codehost:ping:acme",
      "low",
    ],
    ["a star", "star", { action: "created", repository }, "codehost:star:acme/shop", "low"],
    [
      "an issue comment (not an issue event)",
      "issue_comment",
      { action: "created", repository, issue: { number: 12 } },
      "codehost:issue_comment:acme/shop",
      "low",
    ],
    ["an event without a repository", "installation", { action: "created" }, "codehost:installation:unknown", "low"],
    [
      "a delivery without an event header",
      undefined,
      { action: "created", repository },
      "codehost:unknown:acme/shop",
      "low",
    ],
  ])("%s", (_, event, body, fingerprint, severity) => {
    const signal = classify(event, body);
    expect(signal.fingerprint).toBe(fingerprint);
    expect(signal.severity).toBe(severity);
  });
});

describe("codehost titles", () => {
  it.each([
    [
      "issues",
      { action: "opened", repository, issue: { number: 1, title: "Login fails on Safari" } },
      "Login fails on Safari",
    ],
    [
      "pull_request",
      { action: "opened", repository, pull_request: { number: 2, title: "Fix Safari login" } },
      "Fix Safari login",
    ],
    [
      "workflow_run",
      { action: "completed", repository, workflow_run: { name: "CI", head_branch: "main", conclusion: "failure" } },
      "CI failed: CI on main",
    ],
    [
      "check_run",
      {
        action: "completed",
        repository,
        check_run: { name: "lint", conclusion: "success", check_suite: { head_branch: "dev" } },
      },
      "CI success: lint on dev",
    ],
    ["push", { ref: "refs/heads/main", repository, commits: [{}, {}, {}] }, "Push to refs/heads/main (3 commits)"],
    ["push", { ref: "refs/tags/v1.0.0", repository, commits: [{}] }, "Push to refs/tags/v1.0.0 (1 commit)"],
    [
      "code_scanning_alert",
      { action: "created", repository, alert: { number: 1, rule: { description: "SQL built from user input" } } },
      "Code scanning alert: SQL built from user input",
    ],
    [
      "dependabot_alert",
      { action: "created", repository, alert: { number: 2, security_advisory: { summary: "semver ReDoS" } } },
      "Dependabot alert: semver ReDoS",
    ],
    [
      "secret_scanning_alert",
      { action: "created", repository, alert: { number: 3, secret_type: "stripe_api_key" } },
      "Secret scanning alert: stripe_api_key",
    ],
    [
      "repository_vulnerability_alert",
      { action: "create", repository, alert: { id: 4, affected_package_name: "rack" } },
      "Vulnerable dependency: rack",
    ],
    [
      "security_advisory",
      { action: "published", security_advisory: { ghsa_id: "GHSA-x", summary: "RCE in y" } },
      "Security advisory: RCE in y",
    ],
    ["ping", { zen: "Keep it simple.", repository }, "ping on acme/shop"],
    ["issues", { action: "opened", repository, issue: { number: 1, title: "   " } }, "issues.opened on acme/shop"],
    ["issues", { action: "opened", repository, issue: { number: 1, title: "Two\nlines\t here" } }, "Two lines here"],
  ])("%s %j", (event, body, title) => {
    expect(classify(event, body).title).toBe(title);
  });

  it("cuts titles over 500 characters with an ellipsis, never inside an emoji", () => {
    const long = classify("issues", {
      action: "opened",
      repository,
      issue: { number: 1, title: "x".repeat(600) },
    }).title;
    expect(long).toHaveLength(500);
    expect(long.endsWith("x…")).toBe(true);

    const emoji = classify("issues", {
      action: "opened",
      repository,
      issue: { number: 1, title: `${"x".repeat(498)}🚀🚀` },
    }).title;
    expect(emoji).toBe(`${"x".repeat(498)}…`);
    expect(emoji.length).toBeLessThanOrEqual(500);
  });
});

const SECURITY_EVENTS = [
  "code_scanning_alert",
  "secret_scanning_alert",
  "dependabot_alert",
  "security_advisory",
  "repository_vulnerability_alert",
];

function firstOf<T>(items: T[]): T {
  const [first] = items;
  if (first === undefined) throw new Error("expected at least one example");
  return first;
}

/** The table row a real example falls in, read from the payload independently of the rules. */
function expectedRow(
  event: string,
  action: string | null,
  body: Record<string, unknown>,
): { severity: Severity; shape: RegExp } {
  const run = body[event] as { conclusion?: unknown } | undefined;
  if (["check_run", "check_suite", "workflow_run"].includes(event) && action === "completed") {
    if (run?.conclusion === "failure" || run?.conclusion === "timed_out") {
      return { severity: "high", shape: /^codehost:ci:[^:]+\/[^:]+:[^:]+:[^:]+$/ };
    }
  }
  if (event === "issues") return { severity: "medium", shape: /^codehost:issue:[^/#]+\/[^/#]+#\d+$/ };
  if (event === "pull_request") return { severity: "low", shape: /^codehost:pr:[^/#]+\/[^/#]+#\d+$/ };
  if (SECURITY_EVENTS.includes(event)) {
    // A global advisory has no repository; an alert is known by number, id or GHSA id.
    return { severity: "critical", shape: /^codehost:security:(?:[^:/]+\/[^:/]+|unknown):(?:\d+|GHSA-[\w-]+)$/ };
  }
  return { severity: "low", shape: new RegExp(`^codehost:${event}:[^:]+$`) };
}

describe("every @octokit/webhooks-examples delivery of the events Kaizen routes", () => {
  const examples = codehostExamples([
    "issues",
    "pull_request",
    "push",
    "ping",
    "check_run",
    "check_suite",
    "workflow_run",
    "code_scanning_alert",
    "dependabot_alert",
    "security_advisory",
    "repository_vulnerability_alert",
    "star",
  ]);

  it("covers the events with many examples each", () => {
    expect(examples.length).toBeGreaterThan(100);
    expect(new Set(examples.map((example) => example.name)).size).toBe(examples.length);
  });

  it.each(examples)("$name", ({ event, action, body }) => {
    const signal = classify(event, body);
    const row = expectedRow(event, action, body);
    expect(signal.type).toBe(action ? `${event}.${action}` : event);
    expect(signal.deliveryId).toBe(DELIVERY_ID);
    expect(signal.severity).toBe(row.severity);
    expect(signal.fingerprint).toMatch(row.shape);
    expect(signal.title.length).toBeGreaterThan(0);
    expect(signal.title.length).toBeLessThanOrEqual(500);
    // The repository it came from is the source a project may own (docs/api.md#project-sources).
    const repository = (body.repository as { full_name?: string } | undefined)?.full_name ?? null;
    expect(signal.sourceKey).toBe(repository);
  });

  it("names the repository of nearly every example as its source", () => {
    const named = examples.filter((example) => classify(example.event, example.body).sourceKey !== null);
    expect(named.length / examples.length).toBeGreaterThan(0.9);
  });

  it("groups the failing check run of the examples by check name and head branch", () => {
    const failing = examples.filter(
      ({ event, action, body }) =>
        event === "check_run" &&
        action === "completed" &&
        (body.check_run as { conclusion?: unknown }).conclusion === "failure",
    );
    expect(failing.length).toBeGreaterThan(0);
    for (const { body } of failing) {
      const signal = classify("check_run", body);
      expect(signal.fingerprint).toBe("codehost:ci:Codertocat/Hello-World:Octocoders-linter:changes");
      expect(signal.title).toBe("CI failed: Octocoders-linter on changes");
    }
  });

  it("uses the real payloads' issue, pull request and alert numbers", () => {
    const opened = firstOf(codehostExamples(["issues"]).filter((example) => example.action === "opened"));
    const issue = opened.body.issue as { number: number; title: string };
    const repo = (opened.body.repository as { full_name: string }).full_name;
    expect(classify("issues", opened.body)).toMatchObject({
      fingerprint: `codehost:issue:${repo}#${issue.number}`,
      title: issue.title,
    });

    const scanning = firstOf(
      codehostExamples(["code_scanning_alert"]).filter((example) => example.action === "created"),
    );
    expect(classify("code_scanning_alert", scanning.body)).toMatchObject({
      fingerprint: "codehost:security:Codertocat/Hello-World:10",
      title: "Code scanning alert: Query built from user-controlled sources",
    });

    const pushes = codehostExamples(["push"]).filter((example) => example.body.ref === "refs/heads/master");
    expect(pushes.length).toBeGreaterThan(0);
    for (const push of pushes) {
      expect(classify("push", push.body).title).toBe("Push to refs/heads/master (1 commit)");
    }
  });
});

import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { newIssue } from "../../../core/src/issues/issue-item.js";
import { ISSUE_TYPES, type Issue, type IssueStatus, type IssueSummary } from "../../../core/src/issues/schemas.js";
import {
  DEFAULT_PARTIALS,
  DEFAULT_TEMPLATES,
  REPORTING_PARTIAL,
  withDefaultPartialsInPlace,
} from "../../../core/src/templates/defaults.js";
import { DEFAULT_TEMPLATE_SLUGS } from "../../../core/src/templates/keys.js";
import {
  checkTemplateSyntax,
  handlebarsReady,
  type PromptContext,
  renderTemplate,
  renderWithPartials,
} from "../../../core/src/templates/render.js";

// Handlebars loads on first use (not at a cold start); these tests call the renderer directly.
beforeAll(() => handlebarsReady());

const PARTIALS = DEFAULT_PARTIALS.map(({ name, content }) => ({ name, revision: "seeded", content }));

/** A default's version rendered as a claim renders it: with the default partials as seeded. */
function render(versionId: string, content: string, context: PromptContext): Promise<string> {
  return renderWithPartials({ id: versionId, content }, [REPORTING_PARTIAL], PARTIALS, context, undefined);
}

const BASE_URL = "https://kaizen.example.com";
const DISPATCH = {
  id: "dsp_01JD0000000000000000000007",
  token: "dtk_9f8e7d6c5b4a39281706f5e4d3c2b1a0",
  leaseExpiresAt: "2026-01-02T04:00:00.000Z",
};
const PROMPT = { id: "prm_01JD0000000000000000000003" };
/** Shaped like a real service key, so a leak could not hide behind an unusual format. */
const SERVICE_KEY = `kaizen_${"5be1".repeat(16)}`;

const issue: Issue = {
  ...newIssue({
    title: "Checkout times out under load",
    description: "Users see a spinner, then a 504.\nStarted after the last deploy.",
    type: "task",
    status: "in_progress",
    priority: 1,
    parentId: "iss_01JD0000000000000000000040",
    projectId: "prj_01JD00000000000000000000AA",
    labels: ["bug", "checkout"],
    fingerprint: "errortracker:TimeoutError:pay",
    signalSource: "errortracker",
    signalCount: 3,
    lastSignalAt: "2026-01-02T03:04:05.000Z",
    hypothesis: {
      statement: "Lock contention on the orders table slows checkout",
      confidence: 0.6,
      evidence: ["p99 rose with the deploy", "lock waits in the database metrics"],
      validationCriteria: "p99 under 300 ms with the lock removed",
      prediction: "p99 drops below 300 ms",
    },
    blockedBy: ["iss_01JD0000000000000000000007"],
  }),
  id: "iss_01JD0000000000000000000042",
  number: 42,
  identifier: "KZN-42",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-02T00:00:00.000Z",
};

const summary = (number: number, title: string, status: IssueStatus = "todo"): IssueSummary => ({
  id: `iss_01JD00000000000000000000${String(number).padStart(2, "0")}`,
  number,
  identifier: `KZN-${number}`,
  title,
  type: "task",
  status,
  priority: 2,
});

/** Everything a claim puts in a context, as templates/prompt-context-builder.ts builds it: no service key. */
function fullContext(type: Issue["type"]): PromptContext {
  return {
    issue: { ...issue, type },
    parent: summary(40, "Checkout reliability", "in_progress"),
    children: [summary(43, "Add an index to orders")],
    siblings: [summary(44, "Retry payment calls")],
    project: {
      id: "prj_01JD00000000000000000000AA",
      name: "Checkout",
      description: "Fast and reliable",
      status: "active",
      health: "at_risk",
    },
    goal: {
      id: "gol_01JD00000000000000000000AA",
      title: "Fast checkout",
      description: null,
      metric: "checkout p99 latency",
      targetValue: 300,
      currentValue: 820,
      unit: "ms",
      status: "active",
    },
    labels: [
      { name: "bug", color: "#d73a4a" },
      { name: "checkout", color: "#0e8a16" },
    ],
    blocking: [summary(45, "Launch the new cart")],
    blockedBy: [summary(7, "Upgrade the database driver")],
    previousDispatches: [
      {
        id: "dsp_01JD0000000000000000000006",
        status: "failed",
        agent: "agent-a",
        attempt: 1,
        summary: "Could not reproduce with 10 users; needs 200",
        finishedAt: "2026-01-01T12:00:00.000Z",
        pullRequests: [
          {
            number: 17,
            title: "Retry pay()",
            url: "https://codehost.example/acme/shop/pull/17",
            repository: null,
            state: null,
            mergedAt: null,
          },
        ],
      },
    ],
    feedback: [
      {
        kind: "changes_requested",
        author: "reviewer-b",
        body: "The retry must not charge the card twice.",
        url: "https://codehost.example/acme/shop/pull/17#review-1",
        at: "2026-01-01T13:00:00.000Z",
        pullRequest: { repository: "acme/shop", number: 17 },
      },
    ],
    reviewRounds: 1,
    signals: [
      {
        id: "sig_01JD0000000000000000000001",
        source: "errortracker",
        type: "error",
        severity: "high",
        title: "TimeoutError in pay()",
        receivedAt: "2026-01-02T03:04:05.000Z",
        payload: { error: { type: "TimeoutError", frames: ["pay", "charge"] } },
      },
    ],
    dispatch: DISPATCH,
    prompt: PROMPT,
    api: { baseUrl: BASE_URL },
  };
}

function previewContext(type: Issue["type"]): PromptContext {
  return { ...fullContext(type), dispatch: null, prompt: null, previousDispatches: [] };
}

const EXPECTED = [
  ["signal-triage", "signal"],
  ["hypothesis-planning", "hypothesis"],
  ["plan-decomposition", "plan"],
  ["task-execution", "task"],
  ["monitor-check", "monitor"],
] as const;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("default templates", () => {
  it("are five, one per issue type, with unique slugs", () => {
    expect(DEFAULT_TEMPLATES.map(({ slug, conditions }) => [slug, conditions.type])).toEqual(EXPECTED);
    expect(new Set(DEFAULT_TEMPLATES.map(({ slug }) => slug)).size).toBe(5);
    // Seeding reads the marks by these slugs before it loads the templates' content.
    expect(DEFAULT_TEMPLATES.map(({ slug }) => slug)).toEqual([...DEFAULT_TEMPLATE_SLUGS]);
    expect(DEFAULT_TEMPLATES.map(({ conditions }) => conditions.type).sort()).toEqual([...ISSUE_TYPES].sort());
  });

  it.each(DEFAULT_TEMPLATES)("$slug: conditions {type} only, specificity 10, a slug the API accepts", (template) => {
    expect(Object.keys(template.conditions)).toEqual(["type"]);
    expect(template.specificity).toBe(10);
    expect(template.slug).toMatch(/^[a-z0-9-]{2,64}$/);
    expect(template.name.length).toBeGreaterThan(0);
    expect(template.description.length).toBeGreaterThan(0);
    expect(template.changelog.length).toBeGreaterThan(0);
  });

  // Short enough to read in one go: the work, the issue's facts, earlier attempts and review feedback, how to report.
  it.each(DEFAULT_TEMPLATES)("$slug: passes the syntax check and is 40 to 100 lines", (template) => {
    expect(() => checkTemplateSyntax(template.content)).not.toThrow();
    const lines = template.content.split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(40);
    expect(lines).toBeLessThanOrEqual(100);
  });

  it.each(DEFAULT_TEMPLATES)("$slug: names the issue and how to report back through the API", async (template) => {
    const text = await render(`ver_default_${template.slug}`, template.content, fullContext(template.conditions.type));
    for (const expected of [
      "# KZN-42: Checkout times out under load",
      "priority: urgent",
      "labels: bug, checkout",
      "Project: Checkout (active, at_risk)",
      "Fast checkout",
      "Part of KZN-40: Checkout reliability",
      "Child KZN-43: Add an index to orders",
      "Waiting on KZN-7: Upgrade the database driver",
      "Blocking KZN-45: Launch the new cart",
      "Users see a spinner, then a 504.",
      "TimeoutError in pay()",
      '```json\n{\n  "error": {\n    "type": "TimeoutError",',
      "Could not reproduce with 10 users; needs 200",
      "needs 200 — pull request #17 (https://codehost.example/acme/shop/pull/17)",
      "## Review feedback: review sent this back 1 time(s).",
      "- changes_requested by reviewer-b on pull request #17, 2026-01-01T13:00:00.000Z",
      "The retry must not charge the card twice.",
      `Authorization: Bearer ${DISPATCH.token}`,
      `POST "${BASE_URL}/api/dispatch/${DISPATCH.id}/heartbeat"`,
      `before the lease ends (${DISPATCH.leaseExpiresAt})`,
      `POST "${BASE_URL}/api/issues/${issue.id}/comments"`,
      '"authorType": "agent"',
      `POST "${BASE_URL}/api/dispatch/${DISPATCH.id}/complete"`,
      '"result": "done"',
      `POST "${BASE_URL}/api/dispatch/${DISPATCH.id}/release"`,
      `POST "${BASE_URL}/api/prompts/${PROMPT.id}/reviews"`,
      '"clarity": 4, "completeness": 4, "relevance": 5',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain("preview");
    // Nothing was left for Handlebars to fill: a typo in a path would render empty, not braces.
    expect(text).not.toMatch(/\{\{|\}\}/);
  });

  it.each([
    ["signal-triage", ["Reproduce it", "root cause", "kaizen/42-short-name", "names KZN-42"]],
    [
      "hypothesis-planning",
      ["Lock contention on the orders table", "(confidence 0.6)", "Validated when: p99 under 300 ms"],
    ],
    [
      "plan-decomposition",
      [`POST "${BASE_URL}/api/issues"`, '"parentId": "iss_01JD0000000000000000000040"', "$KAIZEN_API_KEY"],
    ],
    ["task-execution", ["kaizen/42-short-name", "pull request whose title names KZN-42", "tests that fail before it"]],
    ["monitor-check", ["checkout p99 latency (last recorded 820 ms, target 300 ms)", "Comment with the value"]],
  ] as const)("%s: says how to work this type of issue", async (slug, phrases) => {
    const template = DEFAULT_TEMPLATES.find((candidate) => candidate.slug === slug);
    if (!template) throw new Error(`no default ${slug}`);
    const text = await render(`ver_default_${slug}`, template.content, fullContext(template.conditions.type));
    for (const phrase of phrases) expect(text).toContain(phrase);
  });

  it("plan-decomposition makes the plan the parent when the plan itself has none", async () => {
    const template = DEFAULT_TEMPLATES.find(({ slug }) => slug === "plan-decomposition");
    if (!template) throw new Error("no plan-decomposition");
    const text = await render("ver_default_plan_root", template.content, { ...fullContext("plan"), parent: null });
    expect(text).toContain(`"parentId": "${issue.id}"`);
    expect(text).toContain("as a child of this plan");
  });

  it.each(DEFAULT_TEMPLATES)("$slug: without a dispatch, says the prompt is a preview", async (template) => {
    const text = await render(
      `ver_default_${template.slug}`,
      template.content,
      previewContext(template.conditions.type),
    );
    expect(text).toContain("This prompt is a preview: no dispatch was claimed");
    expect(text).not.toContain("/api/dispatch/");
    expect(text).not.toContain(DISPATCH.token);
    expect(text).not.toContain("/reviews");
    expect(text).not.toMatch(/\{\{|\}\}/);
  });

  it.each(DEFAULT_TEMPLATES)("$slug: renders with an issue that has nothing around it", async (template) => {
    const bare: PromptContext = {
      ...previewContext(template.conditions.type),
      issue: { ...issue, type: template.conditions.type, description: null, hypothesis: null, labels: [] },
      parent: null,
      children: [],
      blocking: [],
      blockedBy: [],
      project: null,
      goal: null,
      labels: [],
      signals: [],
    };
    const text = await render(`ver_default_${template.slug}`, template.content, bare);
    expect(text).toContain("# KZN-42: Checkout times out under load");
    expect(text).toContain("No description was given");
    expect(text).not.toContain("Project:");
    expect(text).not.toContain("## Signal:");
  });

  describe("share their reporting instructions through the kaizen-reporting partial", () => {
    const reporting = DEFAULT_PARTIALS.find(({ name }) => name === REPORTING_PARTIAL)?.content ?? "";

    it.each(DEFAULT_TEMPLATES)("$slug: includes it once, on a line of its own after the work", (template) => {
      expect(template.content.split(`{{> ${REPORTING_PARTIAL}}}`)).toHaveLength(2);
      expect(template.content.endsWith(`\n\n{{> ${REPORTING_PARTIAL}}}\n`)).toBe(true);
      expect(template.content).not.toContain("## Reporting back");
      expect(reporting.startsWith("## Reporting back\n")).toBe(true);
    });

    it.each(DEFAULT_TEMPLATES)(
      "$slug: renders word for word as its text written in place did, for a claim and a preview",
      async (template) => {
        // The content as it was before the partial: the reporting text where the partial is included.
        const inPlace = template.content.replace(`{{> ${REPORTING_PARTIAL}}}\n`, reporting);
        expect(withDefaultPartialsInPlace(template.content)).toBe(inPlace);
        expect(inPlace).toContain("\n\n## Reporting back\n\n{{#if dispatch}}");
        for (const [kind, context] of [
          ["claim", fullContext(template.conditions.type)],
          ["preview", previewContext(template.conditions.type)],
        ] as const) {
          const shared = await render(`ver_shared_${template.slug}_${kind}`, template.content, context);
          expect(shared).toBe(renderTemplate(`ver_inplace_${template.slug}_${kind}`, inPlace, context));
          expect(shared).toContain("\n\n## Reporting back\n\n");
        }
      },
    );
  });

  describe("never carry the service's API key", () => {
    it.each(DEFAULT_TEMPLATES)("$slug: neither its content nor its rendering holds a key", async (template) => {
      vi.stubEnv("SERVICE_API_KEY", SERVICE_KEY);
      expect(template.content).not.toMatch(/kaizen_[0-9a-f]{64}/);
      expect(template.content).not.toContain("SERVICE_API_KEY");
      for (const context of [fullContext(template.conditions.type), previewContext(template.conditions.type)]) {
        const text = await render(`ver_default_${template.slug}`, template.content, context);
        expect(text).not.toContain(SERVICE_KEY);
        expect(text).not.toMatch(/kaizen_[0-9a-f]{64}/);
      }
    });

    it("a template dumping the whole context shows the dispatch token but no service key", () => {
      vi.stubEnv("SERVICE_API_KEY", SERVICE_KEY);
      const text = renderTemplate("ver_hostile_dump", "{{json this}}{{json @root}}", fullContext("task"));
      // The dump is complete: it reaches the dispatch's own secret...
      expect(text).toContain(DISPATCH.token);
      expect(text).toContain(JSON.stringify(issue.title));
      // ...and the service key is nowhere in what a template can reach.
      expect(text).not.toContain(SERVICE_KEY);
      expect(text).not.toMatch(/kaizen_[0-9a-f]{64}/);
    });
  });
});

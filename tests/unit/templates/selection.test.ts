import { describe, expect, it } from "vitest";
import { DEFAULT_TEMPLATES } from "../../../core/src/templates/defaults.js";
import {
  conditionsMatch,
  type SelectionFacts,
  selectTemplate,
  type TemplateCandidate,
  type TemplateConditions,
} from "../../../core/src/templates/selection.js";

const PROJECT = "prj_01JD00000000000000000000AA";
const OTHER_PROJECT = "prj_01JD00000000000000000000BB";

const facts = (overrides: Partial<SelectionFacts> = {}): SelectionFacts => ({
  type: "task",
  signalSource: null,
  labels: [],
  projectId: null,
  failedDispatches: 0,
  hypothesisConfidence: null,
  ...overrides,
});

const candidate = (slug: string, overrides: Partial<TemplateCandidate> = {}): TemplateCandidate => ({
  id: `tpl_${slug}`,
  slug,
  conditions: {},
  specificity: 10,
  projectId: null,
  activeVersionId: `ver_${slug}`,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

/** The five defaults as stored on first start: conditions `{type}`, specificity 10, all active. */
const DEFAULTS = DEFAULT_TEMPLATES.map((template, index) =>
  candidate(template.slug, {
    conditions: template.conditions,
    specificity: template.specificity,
    createdAt: `2026-01-01T00:00:0${index}.000Z`,
  }),
);

describe("conditionsMatch", () => {
  const cases: [string, TemplateConditions, Partial<SelectionFacts>, boolean][] = [
    ["empty conditions match any issue", {}, { type: "monitor", labels: ["x"], failedDispatches: 3 }, true],
    ["type: same", { type: "task" }, {}, true],
    ["type: other", { type: "signal" }, {}, false],
    ["signalSource: same", { signalSource: "errortracker" }, { signalSource: "errortracker" }, true],
    ["signalSource: other", { signalSource: "errortracker" }, { signalSource: "codehost" }, false],
    ["signalSource: issue from no signal", { signalSource: "errortracker" }, { signalSource: null }, false],
    ["labels: all present", { labels: ["bug", "ui"] }, { labels: ["ui", "perf", "bug"] }, true],
    ["labels: one missing", { labels: ["bug", "ui"] }, { labels: ["bug"] }, false],
    ["labels: issue has none", { labels: ["bug"] }, { labels: [] }, false],
    ["labels: case-insensitive", { labels: ["Bug", "UI"] }, { labels: ["bug", "ui"] }, true],
    ["labels: composed and decomposed é are one label", { labels: ["Café"] }, { labels: ["cafe\u0301"] }, true],
    ["labels: empty list asks nothing", { labels: [] }, { labels: [] }, true],
    ["projectId: same", { projectId: PROJECT }, { projectId: PROJECT }, true],
    ["projectId: other", { projectId: PROJECT }, { projectId: OTHER_PROJECT }, false],
    ["projectId: issue in no project", { projectId: PROJECT }, { projectId: null }, false],
    ["hasFailedDispatches true: one failure", { hasFailedDispatches: true }, { failedDispatches: 1 }, true],
    ["hasFailedDispatches true: none", { hasFailedDispatches: true }, { failedDispatches: 0 }, false],
    ["hasFailedDispatches false: none", { hasFailedDispatches: false }, { failedDispatches: 0 }, true],
    ["hasFailedDispatches false: two failures", { hasFailedDispatches: false }, { failedDispatches: 2 }, false],
    ["minHypothesisConfidence: above", { minHypothesisConfidence: 0.7 }, { hypothesisConfidence: 0.9 }, true],
    ["minHypothesisConfidence: equal", { minHypothesisConfidence: 0.7 }, { hypothesisConfidence: 0.7 }, true],
    ["minHypothesisConfidence: below", { minHypothesisConfidence: 0.7 }, { hypothesisConfidence: 0.69 }, false],
    ["minHypothesisConfidence: no hypothesis", { minHypothesisConfidence: 0 }, { hypothesisConfidence: null }, false],
    ["minHypothesisConfidence 0: confidence 0", { minHypothesisConfidence: 0 }, { hypothesisConfidence: 0 }, true],
    [
      "AND: every condition holds",
      { type: "signal", signalSource: "codehost", labels: ["ci"], hasFailedDispatches: true },
      { type: "signal", signalSource: "codehost", labels: ["CI"], failedDispatches: 1 },
      true,
    ],
    [
      "AND: one condition fails",
      { type: "signal", signalSource: "codehost", labels: ["ci"], hasFailedDispatches: true },
      { type: "signal", signalSource: "codehost", labels: ["CI"], failedDispatches: 0 },
      false,
    ],
  ];

  it.each(cases)("%s", (_name, conditions, overrides, expected) => {
    expect(conditionsMatch(conditions, facts(overrides))).toBe(expected);
  });
});

describe("selectTemplate", () => {
  const cases: [string, TemplateCandidate[], Partial<SelectionFacts>, string | null][] = [
    [
      "a template of the issue's project comes first, even against higher specificity",
      [candidate("global", { specificity: 900 }), candidate("scoped", { projectId: PROJECT, specificity: 1 })],
      { projectId: PROJECT },
      "scoped",
    ],
    [
      "a template of another project never applies",
      [candidate("global"), candidate("elsewhere", { projectId: OTHER_PROJECT, specificity: 900 })],
      { projectId: PROJECT },
      "global",
    ],
    [
      "a project's template does not apply to issues in no project",
      [candidate("scoped", { projectId: PROJECT })],
      { projectId: null },
      null,
    ],
    [
      "higher specificity first",
      [
        candidate("low", { specificity: 10 }),
        candidate("high", { specificity: 50 }),
        candidate("mid", { specificity: 20 }),
      ],
      {},
      "high",
    ],
    [
      "among project-scoped ones, higher specificity first",
      [
        candidate("scoped-low", { projectId: PROJECT, specificity: 5 }),
        candidate("scoped-high", { projectId: PROJECT, specificity: 6 }),
      ],
      { projectId: PROJECT },
      "scoped-high",
    ],
    [
      "equal specificity: the older template",
      [
        candidate("newer", { createdAt: "2026-03-01T00:00:00.000Z" }),
        candidate("older", { createdAt: "2026-02-01T00:00:00.000Z" }),
      ],
      {},
      "older",
    ],
    ["equal age too: the lower id", [candidate("b", { id: "tpl_02" }), candidate("a", { id: "tpl_01" })], {}, "a"],
    [
      "a template without an active version is skipped",
      [candidate("inactive", { specificity: 900, activeVersionId: null }), candidate("active")],
      {},
      "active",
    ],
    [
      "a template whose conditions fail is skipped",
      [candidate("bugs", { specificity: 900, conditions: { labels: ["bug"] } }), candidate("any")],
      { labels: ["feature"] },
      "any",
    ],
    ["nothing matches: null", [candidate("signals", { conditions: { type: "signal" } })], { type: "task" }, null],
    ["no templates: null", [], {}, null],
    ["only inactive templates: null", [candidate("inactive", { activeVersionId: null })], {}, null],
    [
      "a more specific template whose conditions fail falls back to the type's default",
      [...DEFAULTS, candidate("flaky-tasks", { specificity: 50, conditions: { type: "task", labels: ["flaky"] } })],
      { type: "task", labels: ["bug"] },
      "task-execution",
    ],
    [
      "the more specific template wins when its conditions hold",
      [...DEFAULTS, candidate("flaky-tasks", { specificity: 50, conditions: { type: "task", labels: ["flaky"] } })],
      { type: "task", labels: ["Flaky"] },
      "flaky-tasks",
    ],
    ...DEFAULT_TEMPLATES.map(({ slug, conditions }): [string, TemplateCandidate[], Partial<SelectionFacts>, string] => [
      `a ${conditions.type} issue gets its own type's default, never another type's`,
      DEFAULTS,
      { type: conditions.type },
      slug,
    ]),
    [
      "a failing specific template and an inactive default: nothing",
      [
        ...DEFAULTS.map((template) =>
          template.slug === "signal-triage" ? { ...template, activeVersionId: null } : template,
        ),
        candidate("sentry-only", { specificity: 50, conditions: { type: "signal", signalSource: "errortracker" } }),
      ],
      { type: "signal", signalSource: "codehost" },
      null,
    ],
  ];

  it.each(cases)("%s", (_name, candidates, overrides, expected) => {
    expect(selectTemplate(candidates, facts(overrides))?.slug ?? null).toBe(expected);
    // The order templates are read in never changes the choice.
    expect(selectTemplate([...candidates].reverse(), facts(overrides))?.slug ?? null).toBe(expected);
  });

  it("returns the candidate object itself, with its own fields", () => {
    const chosen = { ...candidate("x"), name: "Extra field" };
    expect(selectTemplate([chosen], facts())).toBe(chosen);
  });
});

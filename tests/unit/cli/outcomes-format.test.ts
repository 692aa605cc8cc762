/**
 * What became of agents' work (docs/api.md#outcomes) as the CLI prints it: a version's outcomes,
 * verified rate and people's reviews (`templates show`), each experiment arm's outcomes
 * (`experiments show`), and each agent's row under `stats` (pure functions).
 */
import { describe, expect, it } from "vitest";
import { formatArmOutcomes, formatExperiment } from "../../../client/cli/commands/experiments.js";
import { formatAgents } from "../../../client/cli/commands/overview.js";
import { formatTemplate, versionFields } from "../../../client/cli/commands/templates.js";
import type { Schema } from "../../../client/client.js";
import { type ExperimentArm, humanReviewsText, outcomesText, percentText } from "../../../client/measures.js";
import { wilson } from "../../../core/src/templates/experiment-figures.js";

describe("counts and rates in a line", () => {
  it("shows a plain rate in whole percents, and a dash before there is one", () => {
    expect(percentText(2 / 3)).toBe("67 %");
    expect(percentText(0)).toBe("0 %");
    expect(percentText(1)).toBe("100 %");
    expect(percentText(null)).toBe("—");
  });

  it("names each outcome and each review verdict with its count, zeros included", () => {
    expect(outcomesText({ completed: 5, merged: 3, reworked: 1, regressed: 1, verified: 2 })).toBe(
      "completed 5, merged 3, reworked 1, regressed 1, verified 2",
    );
    expect(humanReviewsText({ approved: 2, changesRequested: 1, commented: 0 })).toBe(
      "approved 2, changes requested 1, commented 0",
    );
  });
});

const version: Schema<"Version"> = {
  id: "ver_1",
  templateId: "tpl_1",
  version: 3,
  content: "Fix {{issue.title}}",
  changelog: null,
  authorType: "human",
  authorName: null,
  status: "active",
  usageCount: 9,
  reviewCount: 4,
  reviewScore: 4.25,
  completionRate: 0.8,
  outcomes: { completed: 6, merged: 4, reworked: 2, regressed: 1, verified: 2 },
  verifiedRate: 2 / 3,
  humanReviews: { approved: 3, changesRequested: 2, commented: 1 },
  cost: { reports: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, meanCostUsd: null },
  createdAt: "2026-11-20T08:00:00.000Z",
};

describe("templates show", () => {
  it("shows the active version's use, outcomes, verified rate and people's reviews", () => {
    expect(versionFields(version)).toEqual([
      ["active", "version 3 (ver_1), used 9×, 4 reviews, score 4.25"],
      ["outcomes", "completed 6, merged 4, reworked 2, regressed 1, verified 2"],
      ["verified rate", "67 %"],
      ["human reviews", "approved 3, changes requested 2, commented 1"],
    ]);
    expect(versionFields({ ...version, verifiedRate: null })).toContainEqual(["verified rate", "—"]);
    expect(versionFields(null)).toEqual([["active", null]]);
  });

  it("prints them aligned with the template's fields, before the version's content", () => {
    const template: Schema<"TemplateDetail"> = {
      id: "tpl_1",
      slug: "task-execution",
      name: "Task execution",
      description: null,
      conditions: { type: "task" },
      specificity: 10,
      projectId: null,
      activeVersionId: version.id,
      createdAt: "2026-11-20T08:00:00.000Z",
      updatedAt: "2026-11-21T08:00:00.000Z",
      activeVersion: version,
    };
    const text = formatTemplate(template, false);
    expect(text).toContain(
      [
        "active         version 3 (ver_1), used 9×, 4 reviews, score 4.25",
        "outcomes       completed 6, merged 4, reworked 2, regressed 1, verified 2",
        "verified rate  67 %",
        "human reviews  approved 3, changes requested 2, commented 1",
        "updated        2026-11-21 08:00",
      ].join("\n"),
    );
    expect(text.endsWith("\nContent (version 3)\nFix {{issue.title}}")).toBe(true);
    expect(formatTemplate({ ...template, activeVersion: null }, false)).toMatch(/^active\s+-$/m);
  });
});

/** An arm with no figures yet but the outcomes given. */
function arm(versionNumber: number, outcomes: Partial<ExperimentArm>): ExperimentArm {
  return {
    versionId: `ver_${versionNumber}`,
    versionNumber,
    claims: 0,
    finished: 0,
    completions: 0,
    failures: 0,
    merged: 0,
    reworked: 0,
    regressed: 0,
    verified: 0,
    reviews: 0,
    completionRate: null,
    reviewScore: null,
    verifiedRate: null,
    costUsd: null,
    ...outcomes,
  };
}

describe("experiments show", () => {
  const arms = {
    control: arm(1, { merged: 9, reworked: 3, regressed: 4, verified: 4, verifiedRate: wilson(4, 8) }),
    candidate: arm(2, { merged: 10, reworked: 1, regressed: 0, verified: 9, verifiedRate: wilson(9, 9) }),
  };

  it("shows what became of each arm's work, with the verified rate's interval", () => {
    expect(formatArmOutcomes(arms, false)).toBe(
      [
        "ARM        MERGED  REWORKED  REGRESSED  VERIFIED  VERIFIED RATE",
        "control         9         3          4         4  50 % (22–78 %)",
        "candidate      10         1          0         9  100 % (70–100 %)",
      ].join("\n"),
    );
    expect(formatArmOutcomes({ control: arm(1, {}), candidate: arm(2, {}) }, false)).toMatch(
      /^control\s+0\s+0\s+0\s+0\s+—$/m,
    );
  });

  it("prints them under the arms' measures", () => {
    const experiment: Schema<"Experiment"> = {
      id: "exp_1",
      templateId: "tpl_1",
      candidateVersionId: "ver_2",
      controlVersionId: "ver_1",
      trafficPercent: 50,
      minSamples: 20,
      autoPromote: true,
      status: "stopped",
      createdAt: "2026-11-20T08:00:00.000Z",
      endedAt: "2026-11-22T08:00:00.000Z",
      arms,
      decision: null,
    };
    const text = formatExperiment(experiment, false);
    expect(text.indexOf("\nArms (95 % intervals)\n")).toBeGreaterThan(0);
    expect(text.endsWith(`\nOutcomes\n${formatArmOutcomes(arms, false)}`)).toBe(true);
  });
});

/** An agent's row with nothing counted but what is given. */
function agent(name: string, counts: Partial<Schema<"AgentPerformance">>): Schema<"AgentPerformance"> {
  return {
    agent: name,
    claims: 0,
    completed: 0,
    failed: 0,
    released: 0,
    stopped: 0,
    expired: 0,
    merged: 0,
    reworked: 0,
    regressed: 0,
    verified: 0,
    verifiedRate: null,
    costUsd: 0,
    usageReports: 0,
    ...counts,
  };
}

describe("stats: the agents' table", () => {
  const rows = [
    agent("claude-1", {
      claims: 12,
      completed: 9,
      failed: 1,
      released: 1,
      expired: 1,
      merged: 7,
      reworked: 2,
      regressed: 1,
      verified: 3,
      verifiedRate: 0.75,
      costUsd: 3.5,
      usageReports: 9,
    }),
    agent("codex-2", { claims: 2, completed: 1, failed: 1 }),
  ];

  it("prints one row per agent: claims, how dispatches ended, what became of the work, verified rate and cost", () => {
    expect(formatAgents({ data: rows, total: 2 }, 7, false)).toBe(
      [
        "",
        "Agents, the last 7 days (UTC, today included)",
        "AGENT     CLAIMS  COMPLETED  FAILED  EXPIRED  MERGED  REWORKED  REGRESSED  VERIFIED  VERIFIED RATE     COST",
        "claude-1      12          9       1        1       7         2          1         3           75 %  $3.5000",
        "codex-2        2          1       1        0       0         0          0         0              —  $0.0000",
      ].join("\n"),
    );
  });

  it("names a single day today, says when no agent did anything, and when the page holds fewer than all", () => {
    expect(formatAgents({ data: [], total: 0 }, 1, false)).toBe(
      "\nAgents, today (UTC)\nNo agent claimed or finished anything.",
    );
    expect(formatAgents({ data: rows, total: 140 }, 7, false)).toMatch(/\nThe 2 agents with the most claims, of 140$/);
  });
});

/**
 * @module templates/version-counts — the counts kept beside each template version, from which its
 * `usageCount`, `completionRate` and `cost` are read (docs/api.md#templates-and-versions): prompts rendered from it, the
 * dispatches of those prompts that ended and that ended done, and what their agents reported they cost. This module is their one writer: a
 * claim and a dispatch's end ask it for the writes of their transactions, and `TemplateStore`
 * reads the counts with the versions. Spread counts (db/spread.ts), so a burst of claims of one
 * version does not take turns. Kept apart from the store so that whoever ends a dispatch (an issue
 * move, a signal) does not carry the whole template store.
 */
import type { TransactItem } from "../db/db.js";
import type { OutcomeCount } from "../issues/outcomes.js";
import type { ReportedCost } from "../stats/usage-stats.js";
import { type VersionCount, versionCountKey } from "./keys.js";

function addition(templateId: string, number: number, count: VersionCount, delta = 1): TransactItem {
  return { SpreadAdd: { Key: versionCountKey(templateId, number, count), attribute: "count", delta } };
}

/** One more prompt rendered from version `number` of a template. */
export function versionUsageAddition(templateId: string, number: number): TransactItem {
  return addition(templateId, number, "usage");
}

/**
 * A dispatch of a prompt rendered from a version ended: it counts toward the version's
 * `completionRate` as finished, and as completed when it ended done; the usage its agent reported
 * adds to the version's sums (a part not reported, or zero, writes nothing).
 */
export function versionOutcomeAdditions(
  templateId: string,
  number: number,
  completed: boolean,
  usage: ReportedCost | null = null,
): TransactItem[] {
  const add = (count: VersionCount, delta = 1) => addition(templateId, number, count, delta);
  const items = completed ? [add("finished"), add("completed")] : [add("finished")];
  if (!usage) return items;
  items.push(add("reported"));
  if (usage.costUsd !== null) items.push(add("cost-reported"));
  for (const [count, value] of [
    ["tokens-in", usage.inputTokens],
    ["tokens-out", usage.outputTokens],
    ["cost", usage.costUsd],
  ] as const) {
    if (value) items.push(add(count, value));
  }
  return items;
}

/** What became of a version's dispatch's work, once each (docs/api.md#outcomes: merged, reworked, regressed, verified). */
export function versionOutcomeCountAdditions(
  templateId: string,
  number: number,
  counted: OutcomeCount[],
): TransactItem[] {
  return counted.map((count) => addition(templateId, number, count));
}

/** The count of a person's code-host review of a version's agent's pull request, by its verdict. */
export function versionHumanReviewAddition(
  templateId: string,
  number: number,
  state: "approved" | "changes_requested" | "commented",
): TransactItem {
  const count: VersionCount =
    state === "approved"
      ? "human-approved"
      : state === "changes_requested"
        ? "human-changes-requested"
        : "human-commented";
  return addition(templateId, number, count);
}

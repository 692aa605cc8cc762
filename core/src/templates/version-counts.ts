/**
 * @module templates/version-counts — the counts kept beside each template version, from which its
 * `usageCount` and `completionRate` are read (API.md 3.4): prompts rendered from it, and the
 * dispatches of those prompts that ended and that ended done. This module is their one writer: a
 * claim and a dispatch's end ask it for the writes of their transactions, and `TemplateStore`
 * reads the counts with the versions. Spread counts (db/spread.ts), so a burst of claims of one
 * version does not take turns. Kept apart from the store so that whoever ends a dispatch (an issue
 * move, a signal) does not carry the whole template store.
 */
import type { TransactItem } from "../db/client.js";
import { type VersionCount, versionCountKey } from "./keys.js";

function addition(templateId: string, number: number, count: VersionCount): TransactItem {
  return { SpreadAdd: { Key: versionCountKey(templateId, number, count), attribute: "count", delta: 1 } };
}

/** One more prompt rendered from version `number` of a template. */
export function versionUsageAddition(templateId: string, number: number): TransactItem {
  return addition(templateId, number, "usage");
}

/**
 * A dispatch of a prompt rendered from a version ended: it counts toward the version's
 * `completionRate` as finished, and as completed when it ended done.
 */
export function versionOutcomeAdditions(templateId: string, number: number, completed: boolean): TransactItem[] {
  return completed
    ? [addition(templateId, number, "finished"), addition(templateId, number, "completed")]
    : [addition(templateId, number, "finished")];
}

/**
 * @module templates/template-writes — the items several template transactions share: a new
 * version's items, a version's status, the release of a slug claim, and the fold of reviews into
 * a version's reviews item. Pure; ./template-store.ts adds them to its transactions.
 */
import type { TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { slugKey, versionKey, versionPointerKey, versionReviewsKey } from "./keys.js";
import type { CompiledTemplate } from "./render.js";
import type { Template, TemplateVersion } from "./schemas.js";
import type { VersionReviews } from "./template-item.js";

/** The key is new. */
export const itemAbsent = "attribute_not_exists(pk)";
/** The slug claim belongs to this template. */
const slugHeldBy = "#templateId = :templateId";
/** No fold moved the version's review position since it was read. */
const foldedThroughIs = "#foldedThrough = :readThrough";
/** The version has no improvement task yet. */
const noImprovementTask = "attribute_not_exists(#improvementIssueId)";

/**
 * A new version's items: the version (with its precompiled content, binary, when there is one, and
 * the partials it includes), the pointer from its id, and its reviews item (none yet).
 */
export function versionWrites(
  version: TemplateVersion,
  compiled?: CompiledTemplate,
  includes: readonly string[] = [],
): TransactItem[] {
  const {
    usageCount: _usage,
    completionRate: _completion,
    outcomes: _outcomes,
    verifiedRate: _verifiedRate,
    humanReviews: _humanReviews,
    reviewCount: _reviews,
    reviewScore: _score,
    ...fields
  } = version;
  return [
    {
      Put: {
        Item: {
          ...versionKey(version.templateId, version.version),
          entity: entityOf("templatever"),
          ...fields,
          ...(compiled ? { compiled } : {}),
          ...(includes.length > 0 ? { includes } : {}),
        },
        ConditionExpression: itemAbsent,
      },
    },
    {
      Put: {
        Item: {
          ...versionPointerKey(version.id),
          entity: entityOf("version"),
          templateId: version.templateId,
          number: version.version,
        },
        ConditionExpression: itemAbsent,
      },
    },
    {
      Put: {
        Item: {
          ...versionReviewsKey(version.templateId, version.version),
          entity: entityOf("templateverreviews"),
          reviewCount: 0,
          reviewScore: null,
          reviewsFoldedThrough: 0,
        },
        ConditionExpression: itemAbsent,
      },
    },
  ];
}

export function versionStatus(templateId: string, number: number, status: "active" | "retired"): TransactItem {
  return {
    Update: {
      Key: versionKey(templateId, number),
      UpdateExpression: "SET #status = :status",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":status": status },
    },
  };
}

export function releaseSlug(template: Template): TransactItem {
  return {
    Delete: {
      Key: slugKey(template.slug),
      ConditionExpression: slugHeldBy,
      ExpressionAttributeNames: { "#templateId": "templateId" },
      ExpressionAttributeValues: { ":templateId": template.id },
    },
  };
}

/**
 * The write that folds the reviews numbered `read.foldedThrough + 1`..`folded.foldedThrough` into
 * a version's reviews item (never the version, whose content makes it large): its count, score
 * and position set at the position read, so of two folds from one position one wins and the
 * other reads again. The first fold writes the item, carrying the improvement task a version
 * kept on itself; with `improvementIssueId`, the version's improvement task is recorded, once.
 */
export function reviewFoldWrite(
  templateId: string,
  number: number,
  read: VersionReviews,
  folded: { foldedThrough: number; reviewCount: number; reviewScore: number | null; improvementIssueId?: string },
): TransactItem {
  const names: Record<string, string> = {
    "#foldedThrough": "reviewsFoldedThrough",
    "#reviewCount": "reviewCount",
    "#reviewScore": "reviewScore",
  };
  const values: Record<string, unknown> = {
    ":through": folded.foldedThrough,
    ":count": folded.reviewCount,
    ":score": folded.reviewScore,
    ":readThrough": read.foldedThrough,
    ":entity": entityOf("templateverreviews"),
  };
  let update = "SET #foldedThrough = :through, #reviewCount = :count, #reviewScore = :score, entity = :entity";
  // No fold wrote it yet (absent, or holding only an improvement task people's reviews opened: the
  // read came from the version), or still at the position read.
  let condition = `attribute_not_exists(#foldedThrough) OR ${foldedThroughIs}`;
  const improvementIssueId = folded.improvementIssueId ?? read.improvementIssueId;
  if (improvementIssueId) {
    names["#improvementIssueId"] = "improvementIssueId";
    values[":issueId"] = improvementIssueId;
    update += ", #improvementIssueId = :issueId";
  }
  if (folded.improvementIssueId) condition = `(${condition}) AND ${noImprovementTask}`;
  return {
    Update: {
      Key: versionReviewsKey(templateId, number),
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The write that records a version's improvement task on its reviews item when people's code-host
 * reviews asked for it (docs/api.md#prompts-and-reviews): once, whoever tries at the same time
 * (a fold's own task included), and leaving the item's fold position as it is.
 */
export function improvementMarkWrite(templateId: string, number: number, issueId: string): TransactItem {
  return {
    Update: {
      Key: versionReviewsKey(templateId, number),
      UpdateExpression: "SET #improvementIssueId = :issueId, entity = :entity",
      ConditionExpression: noImprovementTask,
      ExpressionAttributeNames: { "#improvementIssueId": "improvementIssueId" },
      ExpressionAttributeValues: { ":issueId": issueId, ":entity": entityOf("templateverreviews") },
    },
  };
}

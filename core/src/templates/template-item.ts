/**
 * @module templates/template-item — templates and their versions as their items hold them: the
 * stored template with its listing entry, versions with their counts and reviews, and the decodes
 * of items back into them. Pure, no I/O; the writes are ./template-store.ts's.
 */

import type { Item } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { verifiedRate } from "../issues/outcomes.js";
import { newVersionId, templateKey, type VersionCount } from "./keys.js";
import type { CompiledTemplate } from "./render.js";
import type { CreateVersionBody, RunningExperiment, Template, TemplateVersion } from "./schemas.js";

/** A template as stored: its fields, its `ETag` version, and what it keeps of its versions. */
export interface StoredTemplate {
  template: Template;
  version: number;
  /** Versions made so far: they are numbered 1..versionCount. */
  versionCount: number;
  activeVersionNumber: number | null;
  /** The experiment running on it (./experiment-service.ts), which claims read from its listing entry. */
  experiment: RunningExperiment | null;
}

/** What a claim needs of a template's running experiment to choose an issue's arm. */
export type { RunningExperiment };

/** A version as stored, with what the API does not show. */
export interface StoredVersion {
  version: TemplateVersion;
  /** The improvement task opened for it, once (docs/api.md#prompts-and-reviews). */
  improvementIssueId: string | null;
  /** Its content precompiled (render.ts), absent on versions written before versions were precompiled. */
  compiled: CompiledTemplate | undefined;
  /** The partials its content includes (docs/api.md#partials); none on versions written before partials. */
  includes: string[];
}

/**
 * Where the reviews of a version stand: how many its score has taken and the score after them,
 * the last review number folded in (numbers given up count too: prompts/prompt-service.ts), and its
 * improvement task.
 */
export interface VersionReviews {
  reviewCount: number;
  reviewScore: number | null;
  foldedThrough: number;
  /** False on a version no fold has reached yet (its reviews, if any, were applied one at a time). */
  positionRecorded: boolean;
  improvementIssueId: string | null;
}

/** What selection and the list read of each live template: its listing entry. */
export type TemplateEntry = Pick<
  Template,
  "id" | "slug" | "conditions" | "specificity" | "projectId" | "activeVersionId" | "createdAt"
> & { activeVersionNumber: number | null; experiment: RunningExperiment | null };

export const TEMPLATE_FIELDS = [
  "id",
  "slug",
  "name",
  "description",
  "conditions",
  "specificity",
  "projectId",
  "activeVersionId",
  "createdAt",
  "updatedAt",
] as const satisfies readonly (keyof Template)[];

const VERSION_FIELDS = [
  "id",
  "templateId",
  "version",
  "content",
  "changelog",
  "authorType",
  "authorName",
  "status",
  "reviewCount",
  "reviewScore",
  "completionRate",
  "createdAt",
] as const satisfies readonly (keyof TemplateVersion)[];

export function templateItem(stored: StoredTemplate): Item {
  return {
    ...templateKey(stored.template.id),
    entity: entityOf("template"),
    ...stored.template,
    version: stored.version,
    versionCount: stored.versionCount,
    activeVersionNumber: stored.activeVersionNumber,
    experiment: stored.experiment,
  };
}

/** What the listing entry keeps: what selection and the list filters read. */
export function entryOf({ template, activeVersionNumber, experiment }: StoredTemplate): Item {
  return {
    id: template.id,
    slug: template.slug,
    conditions: template.conditions,
    conditionType: template.conditions.type ?? "any",
    specificity: template.specificity,
    projectId: template.projectId,
    activeVersionId: template.activeVersionId,
    activeVersionNumber,
    experiment,
    createdAt: template.createdAt,
  };
}

/** A running experiment as an item or entry keeps it (absent on templates written before experiments). */
export function runningExperimentOf(value: unknown): RunningExperiment | null {
  if (value === null || value === undefined || typeof value !== "object") return null;
  const { id, candidateVersionId, candidateVersionNumber, trafficPercent } = value as Record<string, unknown>;
  return {
    id: String(id),
    candidateVersionId: String(candidateVersionId),
    candidateVersionNumber: Number(candidateVersionNumber),
    trafficPercent: Number(trafficPercent),
  };
}

export function templateFromItem(item: Item): StoredTemplate {
  // The item was written from a Template by this store; its fields are Template's.
  const template = Object.fromEntries(
    TEMPLATE_FIELDS.map((field) => [field, item[field] ?? null]),
  ) as unknown as Template;
  template.conditions = (item.conditions ?? {}) as Template["conditions"];
  return {
    template,
    version: Number(item.version ?? 1),
    versionCount: Number(item.versionCount ?? 0),
    activeVersionNumber:
      item.activeVersionNumber === null || item.activeVersionNumber === undefined
        ? null
        : Number(item.activeVersionNumber),
    experiment: runningExperimentOf(item.experiment),
  };
}

/** A version from its item, with its reviews from its reviews item when it has one (see {@link versionReviewsOf}). */
export function versionFromItem(
  item: Item,
  reviewsItem: Item | undefined,
  counts: Record<VersionCount, number>,
): StoredVersion {
  const fields = Object.fromEntries(VERSION_FIELDS.map((field) => [field, item[field] ?? null]));
  const { reviewCount, reviewScore, improvementIssueId } = versionReviewsOf(reviewsItem, item);
  return {
    version: {
      ...(fields as unknown as TemplateVersion),
      version: Number(item.version),
      reviewCount,
      reviewScore,
      usageCount: counts.usage,
      completionRate: counts.finished > 0 ? counts.completed / counts.finished : null,
      outcomes: {
        completed: counts.completed,
        merged: counts.merged,
        reworked: counts.reworked,
        regressed: counts.regressed,
        verified: counts.verified,
      },
      verifiedRate: verifiedRate(counts.verified, counts.regressed),
      humanReviews: {
        approved: counts["human-approved"],
        changesRequested: counts["human-changes-requested"],
        commented: counts["human-commented"],
      },
      cost: {
        reports: counts.reported,
        inputTokens: counts["tokens-in"],
        outputTokens: counts["tokens-out"],
        costUsd: counts.cost,
        meanCostUsd: counts["cost-reported"] > 0 ? counts.cost / counts["cost-reported"] : null,
      },
    },
    improvementIssueId,
    compiled: item.compiled instanceof Uint8Array ? item.compiled : undefined,
    includes: Array.isArray(item.includes) ? item.includes.map(String) : [],
  };
}

/**
 * Where a version's reviews stand: its reviews item once a fold wrote it; before that, the version
 * item's own fields (reviews applied before folds, or none), with the improvement task a reviews
 * item may already record (people's code-host reviews open it without a fold).
 */
export function versionReviewsOf(reviewsItem: Item | undefined, versionItem: Item): VersionReviews {
  if (reviewsItem && reviewsItem.reviewsFoldedThrough !== undefined && reviewsItem.reviewsFoldedThrough !== null) {
    return reviewsFromItem(reviewsItem);
  }
  const own = reviewsFromItem(versionItem);
  const marked = reviewsItem?.improvementIssueId;
  return typeof marked === "string" ? { ...own, improvementIssueId: marked } : own;
}

/** The review attributes of a version's reviews item, or of a version item written before those items. */
export const REVIEW_FIELDS = ["reviewCount", "reviewScore", "reviewsFoldedThrough", "improvementIssueId"];

/** Where a version's reviews stand, as its reviews item (or, before any fold wrote one, the version item) holds it. */
export function reviewsFromItem(item: Item): VersionReviews {
  const reviewCount = Number(item.reviewCount ?? 0);
  const recorded = item.reviewsFoldedThrough !== undefined && item.reviewsFoldedThrough !== null;
  return {
    reviewCount,
    reviewScore: item.reviewScore === null || item.reviewScore === undefined ? null : Number(item.reviewScore),
    // Reviews applied one at a time, before folds, were numbered 1..reviewCount.
    foldedThrough: recorded ? Number(item.reviewsFoldedThrough) : reviewCount,
    positionRecorded: recorded,
    improvementIssueId: (item.improvementIssueId as string | undefined) ?? null,
  };
}

/** A new version as first stored: no usage, reviews or score yet. */
export function newVersionRecord(
  templateId: string,
  number: number,
  input: Pick<CreateVersionBody, "changelog" | "authorType" | "authorName" | "content">,
  status: TemplateVersion["status"],
  createdAt: string,
  id = newVersionId(Date.parse(createdAt)),
): TemplateVersion {
  return {
    id,
    templateId,
    version: number,
    content: input.content,
    changelog: input.changelog ?? null,
    authorType: input.authorType ?? "human",
    authorName: input.authorName ?? null,
    status,
    usageCount: 0,
    reviewCount: 0,
    reviewScore: null,
    completionRate: null,
    outcomes: { completed: 0, merged: 0, reworked: 0, regressed: 0, verified: 0 },
    verifiedRate: null,
    humanReviews: { approved: 0, changesRequested: 0, commented: 0 },
    cost: { reports: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, meanCostUsd: null },
    createdAt,
  };
}

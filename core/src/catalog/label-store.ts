/**
 * @module catalog/label-store — the catalog's kinds of record (projects, goals, labels) and every
 * DynamoDB expression about label names: the claim written with a label, so a name belongs to one
 * label whatever the concurrency, and the checks issue and template writes add. Keys and access
 * patterns: ./keys.ts; the record writes: ./record-store.ts; the reads others make: ./catalog-lookups.ts.
 */
import type { Db, TransactItem } from "../db/db.js";
import { ConditionFailedError } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError } from "../errors.js";
import { fenceHeld, guardShardsCleared, guardTombstones, referenceCheck, removeFence, setFence } from "./fence.js";
import {
  GOAL_LISTINGS,
  goalKey,
  goalListings,
  LABEL_LISTINGS,
  labelKey,
  labelListings,
  labelNameKey,
  newCatalogId,
  PROJECT_LISTINGS,
  projectKey,
  projectListings,
} from "./keys.js";
import { lostRace } from "./patch.js";
import { failedAt, type RecordKind, RecordStore, type Stored } from "./record-store.js";
import {
  type CreateLabelBody,
  DEFAULT_VERIFY_HOURS,
  type Goal,
  type Label,
  type Project,
  type ProjectAutomation,
  type ProjectAutonomy,
  type ProjectLimits,
  type ProjectSources,
} from "./schemas.js";

/** Limits of a project that sets none (and of projects stored before limits existed). */
export const NO_LIMITS: ProjectLimits = {
  maxActivePerAgent: null,
  dailyCostBudgetUsd: null,
  maxInReview: null,
  maxCostPerDispatchUsd: null,
};

/** Sources of a project that owns none (and of projects stored before sources existed). */
export const NO_SOURCES: ProjectSources = { codehost: [], errortracker: [], analytics: [] };

/** Automation of a project that has none (and of projects stored before automation existed). */
export const NO_AUTOMATION: ProjectAutomation = { acceptAtPriority: null, acceptAtSignals: null };

/** Autonomy of a project that asks for no approval (and of projects stored before autonomy existed). */
export const FULL_AUTONOMY: ProjectAutonomy = { planApproval: false };

export const PROJECT_KIND: RecordKind<Project> = {
  entity: entityOf("project"),
  key: projectKey,
  scheme: PROJECT_LISTINGS,
  listingsOf: projectListings,
  entryOf: (project) => ({ id: project.id, status: project.status }),
  fields: [
    "id",
    "name",
    "description",
    "status",
    "health",
    "goalId",
    "limits",
    "sources",
    "automation",
    "autonomy",
    "verifyHours",
    "createdAt",
    "updatedAt",
  ],
  // Projects stored before limits, sources, automation or autonomy existed have none.
  absent: {
    limits: NO_LIMITS,
    sources: NO_SOURCES,
    automation: NO_AUTOMATION,
    autonomy: FULL_AUTONOMY,
    verifyHours: DEFAULT_VERIFY_HOURS,
  },
  pointer: { field: "goalId", noun: "goal", targetKey: goalKey },
};

export const GOAL_KIND: RecordKind<Goal> = {
  entity: entityOf("goal"),
  key: goalKey,
  scheme: GOAL_LISTINGS,
  listingsOf: goalListings,
  entryOf: (goal) => ({ id: goal.id, status: goal.status, projectId: goal.projectId }),
  fields: [
    "id",
    "title",
    "description",
    "metric",
    "targetValue",
    "currentValue",
    "unit",
    "status",
    "projectId",
    "createdAt",
    "updatedAt",
  ],
  pointer: { field: "projectId", noun: "project", targetKey: projectKey },
};

export const LABEL_KIND: RecordKind<Label> = {
  entity: entityOf("label"),
  key: labelKey,
  scheme: LABEL_LISTINGS,
  listingsOf: labelListings,
  entryOf: (label) => ({ id: label.id }),
  fields: ["id", "name", "color", "createdAt"],
};

// Named condition fragments.
/** Nobody holds the label name. */
const nameUnclaimed = "attribute_not_exists(pk)";
/** The name claim belongs to the label being deleted. */
const claimHeldBy = "#labelId = :labelId";

/**
 * Labels: records of {@link LABEL_KIND} whose names are claimed in the same transaction, so a
 * name (compared case-insensitively) belongs to one label whatever the concurrency.
 */
export class LabelStore extends RecordStore<Label> {
  constructor(db: Db) {
    super(db, LABEL_KIND);
  }

  /**
   * Makes the label `input` names (its id and time from `now`), or 409 `Label "<name>" already
   * exists` when a label holds the name in any case. The one way a label is made: by the API and
   * by whoever needs a label of its own (prompts/improvement-tasks.ts).
   */
  async createLabel(input: CreateLabelBody, now: Date): Promise<Stored<Label>> {
    const { id, createdAt } = newCatalogId("lbl", now.getTime());
    const label: Label = { id, name: input.name, color: input.color, createdAt };
    return retryRaces(() => this.claimAndCreate(label), { isRace: lostRace });
  }

  /** Creates the label with the claim of its name, or 409 when another label holds the name. */
  private async claimAndCreate(label: Label): Promise<Stored<Label>> {
    const claim: TransactItem = {
      Put: {
        Item: { ...labelNameKey(label.name), entity: entityOf("labelname"), labelId: label.id, name: label.name },
        ConditionExpression: nameUnclaimed,
      },
    };
    try {
      // A name claimed before by a deleted label left tombstones on its check's shards.
      return await this.create(label, [...guardShardsCleared(labelNameKey(label.name)), claim]);
    } catch (error) {
      if (error instanceof ConditionFailedError && failedAt(error, error.reasons.length - 1)) {
        throw new ConflictError(`Label "${label.name}" already exists`);
      }
      throw error;
    }
  }

  /**
   * Fences the label's name against new uses until `until` (see {@link RecordStore.fence}):
   * issue writes check the name claim, so that is what carries the fence.
   */
  async fenceName(current: Stored<Label>, until: string): Promise<void> {
    await setFence(this.db, labelNameKey(current.record.name), until, {
      expression: claimHeldBy,
      names: { "#labelId": "labelId" },
      values: { ":labelId": current.record.id },
    });
  }

  async unfenceName(current: Stored<Label>): Promise<void> {
    await removeFence(this.db, labelNameKey(current.record.name));
  }

  /** Deletes the label and releases its name, while the fence set at `fencedAt`'s delete holds. */
  async deleteLabel(current: Stored<Label>, fencedAt: string): Promise<void> {
    const release: TransactItem = {
      Delete: {
        Key: labelNameKey(current.record.name),
        ConditionExpression: `${claimHeldBy} AND ${fenceHeld}`,
        ExpressionAttributeNames: { "#labelId": "labelId", "#deletingUntil": "deletingUntil" },
        ExpressionAttributeValues: { ":labelId": current.record.id, ":now": fencedAt },
      },
    };
    await this.delete(current, { extra: [release, ...guardTombstones(labelNameKey(current.record.name))] });
  }
}

/**
 * A transaction item that holds only while the project exists and no delete of it is under
 * way: issue writes that set `projectId` add it to their own transaction, so no issue lands in
 * a project that a concurrent delete has already counted as empty.
 * @example await db.transactWrite([...issueWrites, projectExistsCheck(projectId)]);
 */
export function projectExistsCheck(id: string, now: Date = new Date()): TransactItem {
  return referenceCheck(projectKey(id), now);
}

/** Likewise for a label name (any case): issue writes that add a label include it. */
export function labelExistsCheck(name: string, now: Date = new Date()): TransactItem {
  return referenceCheck(labelNameKey(name), now);
}

/**
 * @module catalog/source-store — the claims projects hold on the sources they own
 * (docs/api.md#project-sources): one item per source, written in its project's transaction, so a
 * source belongs to one project whatever the concurrency. Each claim carries the routing a signal
 * from that source needs (its project, the project's automation, whether it has an active goal),
 * so a receiver learns all of it from the one read it makes beside the fingerprint's pointer.
 */
import { ConditionFailedError, type Db, type Item, type Key, type TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { foldSourceName, projectSourceKey } from "./keys.js";
import { NO_AUTOMATION } from "./label-store.js";
import { type ProjectAutomation, type ProjectSources, SOURCE_KINDS, type SourceKind } from "./schemas.js";

/** What a signal from a project's source is routed by (docs/api.md#what-a-signal-does, step 0). */
export interface SourceRouting {
  projectId: string;
  automation: ProjectAutomation;
  /** The project has an active goal: its issues score the goal bonus. */
  goalActive: boolean;
}

/** One source: its kind and its name as the project spells it. */
export interface SourceRef {
  kind: SourceKind;
  name: string;
}

/** What a project's claims say beside the project: its automation and its goal bonus. */
export type ClaimRouting = Omit<SourceRouting, "projectId">;

/** Items one transaction may hold (DynamoDB's limit). */
export const TRANSACTION_ITEMS = 100;
/** At most this many sources may be claimed or given up in one change: one transaction holds them with their project. */
export const MAX_SOURCE_CHANGES = TRANSACTION_ITEMS - 10;

// Named condition fragments.
/** The source is free, or already this project's. */
const freeOrOurs = "attribute_not_exists(pk) OR #projectId = :projectId";
/** The claim is this project's. */
const ours = "#projectId = :projectId";

/** Every source of `sources`, kind by kind, in the order listed. */
export function sourceRefs(sources: ProjectSources): SourceRef[] {
  return SOURCE_KINDS.flatMap((kind) => sources[kind].map((name) => ({ kind, name })));
}

/** The key of a source's claim. */
export function sourceKey(source: SourceRef): Key {
  return projectSourceKey(source.kind, source.name);
}

/** The routing a claim item holds. */
export function routingOf(item: Item): SourceRouting {
  const automation = (item.automation ?? NO_AUTOMATION) as ProjectAutomation;
  return { projectId: String(item.projectId), automation, goalActive: item.goalActive === true };
}

/** How a project's sources change: those it gains, loses and keeps (compared case-insensitively). */
export function sourceChanges(
  before: ProjectSources | null,
  after: ProjectSources | null,
): { added: SourceRef[]; removed: SourceRef[]; kept: SourceRef[] } {
  const id = (source: SourceRef) => `${source.kind}\u0000${foldSourceName(source.name)}`;
  const old = before ? sourceRefs(before) : [];
  const next = after ? sourceRefs(after) : [];
  const oldIds = new Set(old.map(id));
  const nextIds = new Set(next.map(id));
  return {
    added: next.filter((source) => !oldIds.has(id(source))),
    removed: old.filter((source) => !nextIds.has(id(source))),
    // A kept source respelled (`Acme/Shop` for `acme/shop`) is written again with the new spelling.
    kept: next.filter((source) => oldIds.has(id(source))),
  };
}

export class SourceStore {
  constructor(private readonly db: Db) {}

  /**
   * The writes that claim `sources` for `projectId` with `routing` (each free or already the
   * project's), for the project's own transaction.
   */
  prepareClaims(projectId: string, sources: SourceRef[], routing: ClaimRouting): TransactItem[] {
    return sources.map((source) => ({
      Put: {
        Item: {
          ...sourceKey(source),
          entity: entityOf("projectsource"),
          kind: source.kind,
          name: source.name,
          projectId,
          automation: routing.automation,
          goalActive: routing.goalActive,
        },
        ConditionExpression: freeOrOurs,
        ExpressionAttributeNames: { "#projectId": "projectId" },
        ExpressionAttributeValues: { ":projectId": projectId },
      },
    }));
  }

  /** The writes that give up `sources` of `projectId` (a claim already gone is fine). */
  prepareReleases(projectId: string, sources: SourceRef[]): TransactItem[] {
    return sources.map((source) => ({
      Delete: {
        Key: sourceKey(source),
        ConditionExpression: freeOrOurs,
        ExpressionAttributeNames: { "#projectId": "projectId" },
        ExpressionAttributeValues: { ":projectId": projectId },
      },
    }));
  }

  /**
   * Writes `routing` onto the claims of `projectId` on `sources`, a transaction of at most 100 at a
   * time; a claim the project no longer holds is left alone. For a change that follows the
   * project's own (its goals changed), or one too large to ride in its transaction.
   */
  async refresh(projectId: string, sources: SourceRef[], routing: ClaimRouting): Promise<void> {
    for (let start = 0; start < sources.length; start += TRANSACTION_ITEMS) {
      const chunk = sources.slice(start, start + TRANSACTION_ITEMS);
      await Promise.all(chunk.map((source) => this.refreshOne(projectId, source, routing)));
    }
  }

  private async refreshOne(projectId: string, source: SourceRef, routing: ClaimRouting): Promise<void> {
    try {
      await this.db.update({
        Key: sourceKey(source),
        UpdateExpression: "SET #automation = :automation, #goalActive = :goalActive",
        ConditionExpression: ours,
        ExpressionAttributeNames: {
          "#projectId": "projectId",
          "#automation": "automation",
          "#goalActive": "goalActive",
        },
        ExpressionAttributeValues: {
          ":projectId": projectId,
          ":automation": routing.automation,
          ":goalActive": routing.goalActive,
        },
      });
    } catch (error) {
      // The project gave the source up meanwhile: nothing to refresh.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }

  /** The project that owns each of `sources`, where one does (read strongly). */
  async owners(sources: SourceRef[]): Promise<Map<SourceRef, string>> {
    const items = await this.db.batchGet(sources.map(sourceKey), { consistent: true });
    const byKey = new Map(items.map((item) => [String(item.pk), String(item.projectId)]));
    const owners = new Map<SourceRef, string>();
    for (const source of sources) {
      const owner = byKey.get(sourceKey(source).pk);
      if (owner) owners.set(source, owner);
    }
    return owners;
  }
}

/** @module issues/relation-store — every DynamoDB expression about relations between issues; keys in ./relation-keys.ts. */
import type { Db, Item, TransactItem } from "../db/db.js";
import { edgeKey, pairKey, relationKey, type StoredRelationType } from "./relation-keys.js";
import type { Relation } from "./relation-schemas.js";

/** A relation as stored: `blocks` runs from `issueId` (the blocker) to `relatedIssueId`. */
export interface RelationFact {
  id: string;
  type: StoredRelationType;
  issueId: string;
  relatedIssueId: string;
  createdAt: string;
}

/**
 * The version of every relation (its `ETag`, docs/api.md#concurrency-and-idempotency): a relation
 * is made and removed, never changed, so it stays at its first version and keeps none.
 */
export const RELATION_VERSION = 1;

// Named condition fragments.
/** Nothing is stored under this key yet. */
const absent = "attribute_not_exists(pk)";
/** The relation still exists. */
const present = "attribute_exists(pk)";

/** Index of the pair claim in {@link RelationStore.prepareCreate}'s writes: its failure means "already related". */
export const PAIR_CLAIM_INDEX = 1;

export class RelationStore {
  constructor(private readonly db: Db) {}

  async get(id: string): Promise<RelationFact | undefined> {
    const item = await this.db.get(relationKey(id), { consistent: true });
    return item ? factOf(item) : undefined;
  }

  /** The relation, the pair claim (second: see PAIR_CLAIM_INDEX) and an edge at each end. */
  prepareCreate(fact: RelationFact): TransactItem[] {
    return [
      { Put: { Item: { ...relationKey(fact.id), ...fact }, ConditionExpression: absent } },
      {
        Put: {
          Item: { ...pairKey(fact.type, fact.issueId, fact.relatedIssueId), relationId: fact.id },
          ConditionExpression: absent,
        },
      },
      { Put: { Item: { ...edgeKey(fact.issueId, fact.id), ...fact } } },
      { Put: { Item: { ...edgeKey(fact.relatedIssueId, fact.id), ...fact } } },
    ];
  }

  prepareDelete(fact: RelationFact): TransactItem[] {
    return [
      { Delete: { Key: relationKey(fact.id), ConditionExpression: present } },
      { Delete: { Key: pairKey(fact.type, fact.issueId, fact.relatedIssueId) } },
      { Delete: { Key: edgeKey(fact.issueId, fact.id) } },
      { Delete: { Key: edgeKey(fact.relatedIssueId, fact.id) } },
    ];
  }
}

/** Relations of an issue from the edge items of its partition, seen from it, oldest first. */
export function relationsFromEdges(edges: Item[], issueId: string): Relation[] {
  return edges.map((edge) => viewFrom(factOf(edge), issueId));
}

/** The fact as seen from `issueId`, one of its two ends. */
export function viewFrom(fact: RelationFact, issueId: string): Relation {
  const near = fact.issueId === issueId;
  const type = fact.type === "blocks" && !near ? "blocked_by" : fact.type;
  return {
    id: fact.id,
    type,
    issueId,
    relatedIssueId: near ? fact.relatedIssueId : fact.issueId,
    createdAt: fact.createdAt,
  };
}

function factOf(item: Item): RelationFact {
  return {
    id: String(item.id),
    type: item.type as StoredRelationType,
    issueId: String(item.issueId),
    relatedIssueId: String(item.relatedIssueId),
    createdAt: String(item.createdAt),
  };
}

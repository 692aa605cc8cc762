/**
 * @module issues/relation-keys — relations between issues as one fact with two ends (pure).
 *
 * Access patterns:
 * - relation by id ........ GetItem pk=$kaizen#relation_1#<id>
 * - relations of an issue . Query   pk=$kaizen#issue_1#<issue id> sk begins_with $kaizen#issuerel_1#
 *                           (one edge per relation end, in each issue's own partition)
 * - one fact per pair ..... GetItem pk=$kaizen#relpair_1#<type>#<a>#<b> (written under condition)
 */
import type { Key } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";
import { issueKey, RELATION_EDGE_PREFIX } from "./keys.js";

const RELATION_ENTITY = keyPrefix("relation");
const PAIR_ENTITY = keyPrefix("relpair");

/** How a relation is stored: `blocks` from the blocker; `related` and `duplicate` as given. */
export type StoredRelationType = "blocks" | "related" | "duplicate";

export function relationKey(id: string): Key {
  return { pk: `${RELATION_ENTITY}#${id}`, sk: RELATION_ENTITY };
}

export function edgeKey(issueId: string, relationId: string): Key {
  return { pk: issueKey(issueId).pk, sk: `${RELATION_EDGE_PREFIX}${relationId}` };
}

/** The claim that makes a fact unique: `blocks` is directed, the others are not. */
export function pairKey(type: StoredRelationType, issueId: string, relatedIssueId: string): Key {
  const [a, b] = type === "blocks" ? [issueId, relatedIssueId] : [issueId, relatedIssueId].sort();
  return { pk: `${PAIR_ENTITY}#${type}#${a}#${b}`, sk: PAIR_ENTITY };
}

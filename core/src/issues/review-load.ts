/**
 * @module issues/review-load — how many of a project's issues wait in review
 * (docs/api.md#review-capacity): one count per project, changed by every move into or out of
 * `in_review` in that move's own transaction (an ADD, so moves at once never lose one), and read by
 * claims of the project's issues while it sets `limits.maxInReview`.
 */
import type { Db, Item, TransactItem } from "../db/db.js";
import { reviewLoadKey } from "./keys.js";

export class ReviewLoad {
  constructor(private readonly db: Db) {}

  /** The write that changes project `projectId`'s count by `delta`. */
  static prepareChange(projectId: string, delta: number): TransactItem {
    return {
      Update: {
        Key: reviewLoadKey(projectId),
        UpdateExpression: "ADD inReview :delta",
        ExpressionAttributeValues: { ":delta": delta },
      },
    };
  }

  /** How many of the project's issues wait in review now (read strongly). */
  async inReview(projectId: string): Promise<number> {
    const item = await this.db.get(reviewLoadKey(projectId), { consistent: true });
    return countOf(item);
  }

  /** How many of each project's issues wait in review now: one strongly consistent BatchGet (none for no projects). */
  async inReviewOf(projectIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map(projectIds.map((projectId) => [projectId, 0]));
    if (counts.size === 0) return counts;
    const byPartition = new Map([...counts.keys()].map((projectId) => [reviewLoadKey(projectId).pk, projectId]));
    const items = await this.db.batchGet([...counts.keys()].map(reviewLoadKey), { consistent: true });
    for (const item of items) {
      const projectId = byPartition.get(String(item.pk));
      if (projectId !== undefined) counts.set(projectId, countOf(item));
    }
    return counts;
  }
}

/** A count item's value: a project none of whose issues ever went to review has no item (0). */
function countOf(item: Item | undefined): number {
  return Math.max(0, Number(item?.inReview ?? 0));
}

/**
 * The count changes of moves, one write per project: an issue leaving review (or its project while
 * in review) counts out of the project it was in, one entering counts into the one it is in now.
 */
export function reviewLoadChanges(
  moves: {
    before: { status: string; projectId: string | null };
    after: { status: string; projectId: string | null } | null;
  }[],
): TransactItem[] {
  const deltas = new Map<string, number>();
  for (const { before, after } of moves) {
    const from = before.status === "in_review" ? before.projectId : null;
    const to = after?.status === "in_review" ? after.projectId : null;
    if (from === to) continue;
    if (from) deltas.set(from, (deltas.get(from) ?? 0) - 1);
    if (to) deltas.set(to, (deltas.get(to) ?? 0) + 1);
  }
  return [...deltas]
    .filter(([, delta]) => delta !== 0)
    .map(([project, delta]) => ReviewLoad.prepareChange(project, delta));
}

/**
 * @module issues/relation-service — relations between issues: one fact visible from both ends, no
 * `blocks` cycles, and `blockedBy` kept to the open blockers of each issue.
 */
import { ulid } from "ulid";
import { ConditionFailedError, type TransactItem } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, fieldError, NotFoundError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import type { StoredIssue } from "./issue-item.js";
import type { IssueService } from "./issue-service.js";
import type { IssueStore } from "./issue-store.js";
import type { CreateRelationBody, Relation } from "./relation-schemas.js";
import {
  PAIR_CLAIM_INDEX,
  RELATION_VERSION,
  type RelationFact,
  type RelationStore,
  viewFrom,
} from "./relation-store.js";
import { isOpen } from "./transitions.js";

/** Most issues a cycle check visits before it gives up and refuses (a pathological graph). */
const MAX_CYCLE_WALK = 2_000;

export class RelationService {
  constructor(
    private readonly relations: RelationStore,
    private readonly issues: IssueService,
    private readonly issueStore: IssueStore,
  ) {}

  /** Relates `ref` to the body's issue; 409 for a repeated fact or a `blocks` cycle. */
  async relate(ref: string, body: CreateRelationBody): Promise<Relation> {
    const id = `rel_${ulid()}`;
    return retryRaces(
      async () => {
        // Both ends read side by side; a missing `ref` is answered before a missing related issue.
        const [found, related] = await Promise.allSettled([
          this.issues.getIssue(ref),
          this.issues.getIssue(body.relatedIssueId),
        ]);
        if (found.status === "rejected") throw found.reason;
        if (related.status === "rejected") {
          if (related.reason instanceof NotFoundError) {
            throw fieldError("relatedIssueId", `issue ${body.relatedIssueId} does not exist`);
          }
          throw related.reason;
        }
        const [issue, other] = [found.value, related.value];
        if (other.issue.id === issue.issue.id) throw fieldError("relatedIssueId", "an issue cannot relate to itself");
        const [from, to] = body.type === "blocked_by" ? [other, issue] : [issue, other];
        const fact: RelationFact = {
          id,
          type: body.type === "blocked_by" ? "blocks" : body.type,
          issueId: from.issue.id,
          relatedIssueId: to.issue.id,
          createdAt: new Date().toISOString(),
        };
        const writes = this.relations.prepareCreate(fact);
        if (fact.type === "blocks") {
          if (await this.reaches(to, from.issue.id)) {
            throw new ConflictError(
              `${from.issue.identifier} cannot block ${to.issue.identifier}: that would make a cycle`,
            );
          }
          writes.push(...this.blockWrites(from, to, true));
        }
        try {
          await this.issueStore.transact(writes);
        } catch (error) {
          if (error instanceof ConditionFailedError && error.reasons[PAIR_CLAIM_INDEX] === "ConditionalCheckFailed") {
            throw new ConflictError(
              `${issue.issue.identifier} and ${other.issue.identifier} are already related that way`,
            );
          }
          throw error;
        }
        return viewFrom(fact, issue.issue.id);
      },
      { isRace: (error) => error.reasons[PAIR_CLAIM_INDEX] !== "ConditionalCheckFailed" },
    );
  }

  /**
   * Removes a relation from both ends if it is at a version `expected` lists (412 otherwise; any version
   * when undefined); a blocker stops blocking.
   */
  async unrelate(id: string, expected?: ExpectedVersions): Promise<void> {
    await retryRaces(async () => {
      const fact = /^rel_[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? await this.relations.get(id) : undefined;
      if (!fact) throw new NotFoundError(`Relation ${id} not found`);
      checkVersion(expected, RELATION_VERSION);
      const writes: TransactItem[] = this.relations.prepareDelete(fact);
      if (fact.type === "blocks") {
        const [from, to] = await Promise.all([
          this.issueStore.get(fact.issueId),
          this.issueStore.get(fact.relatedIssueId),
        ]);
        writes.push(...this.blockWrites(from, to, false));
      }
      await this.issueStore.transact(writes);
    });
  }

  /** The blocker's `blocking` and the blocked issue's `blockedBy` after adding or removing the fact. */
  private blockWrites(
    blocker: StoredIssue | undefined,
    blocked: StoredIssue | undefined,
    add: boolean,
  ): TransactItem[] {
    const writes: TransactItem[] = [];
    if (blocker && blocked) {
      const blocking = blocker.blocking.filter((issueId) => issueId !== blocked.issue.id);
      if (add) blocking.push(blocked.issue.id);
      writes.push(...this.issueStore.prepareRelationChange(blocker, { blocking }).writes);
    }
    if (blocked && blocker) {
      const blockedBy = blocked.issue.blockedBy.filter((issueId) => issueId !== blocker.issue.id);
      if (add && isOpen(blocker.issue.status)) blockedBy.push(blocker.issue.id);
      if (blockedBy.length !== blocked.issue.blockedBy.length || add) {
        writes.push(...this.issueStore.prepareRelationChange(blocked, { blockedBy }).writes);
      }
    }
    return writes;
  }

  /** Whether `target` can be reached from `start` along `blocks` (one read per level). */
  private async reaches(start: StoredIssue, target: string): Promise<boolean> {
    const seen = new Set<string>([start.issue.id]);
    let frontier = start.blocking;
    while (frontier.length > 0) {
      if (frontier.includes(target)) return true;
      // Two issues of one level may block the same one: it is walked once, so diamonds do not multiply the frontier.
      const fresh = [...new Set(frontier)].filter((issueId) => !seen.has(issueId));
      for (const issueId of fresh) seen.add(issueId);
      if (seen.size > MAX_CYCLE_WALK) return true;
      const next = await this.issueStore.getMany(fresh);
      frontier = next.flatMap((stored) => stored.blocking);
    }
    return false;
  }
}

/**
 * @module issues/pull-request-index — which issue, and which dispatch, a pull request was completed for
 * (docs/api.md#review): a completion naming pull requests points each (repository and number) at
 * its issue and dispatch, in the completion's transaction; code-host review events find the issue
 * by it, and a person's review the dispatch whose prompt it judges.
 */
import type { Db, TransactItem } from "../db/db.js";
import { pullRequestKey } from "./keys.js";
import { REPOSITORY_NAME } from "./schemas.js";

/** A pull request as code-host events name it. */
export interface PullRequestRef {
  repository: string;
  number: number;
}

const PULL_URL = /^https?:\/\/[^/]+\/([^/]+\/[^/]+)\/pulls?\/(\d+)(?:[/?#].*)?$/i;

/**
 * The repository of a pull request: as given, else read from a `url` of the form
 * `https://<host>/<owner>/<repo>/pull/<number>`; null when neither says.
 * @example repositoryOf({ number: 7, url: "https://github.com/acme/shop/pull/7" }) // "acme/shop"
 */
export function repositoryOf(pr: { number: number; url?: string | null; repository?: string | null }): string | null {
  if (pr.repository) return pr.repository;
  const match = PULL_URL.exec(pr.url ?? "");
  if (!match?.[1] || Number(match[2]) !== pr.number) return null;
  return REPOSITORY_NAME.test(match[1]) ? match[1] : null;
}

export class PullRequestIndex {
  constructor(private readonly db: Db) {}

  /** The writes pointing each pull request at `issueId` and `dispatchId` (the latest completion naming one wins). */
  preparePoint(refs: PullRequestRef[], issueId: string, dispatchId: string): TransactItem[] {
    return refs.map((ref) => ({
      Put: {
        Item: {
          ...pullRequestKey(ref.repository, ref.number),
          issueId,
          dispatchId,
          repository: ref.repository,
          number: ref.number,
        },
      },
    }));
  }

  /** The dispatch whose completion named the pull request; null for none (or a pointer kept before dispatches were). */
  async dispatchOf(ref: PullRequestRef): Promise<string | null> {
    const item = await this.db.get(pullRequestKey(ref.repository, ref.number), { consistent: true });
    return typeof item?.dispatchId === "string" ? item.dispatchId : null;
  }

  /** The issue ids the pull requests point at, in order, without repeats. */
  async issuesOf(refs: PullRequestRef[]): Promise<string[]> {
    if (refs.length === 0) return [];
    const items = await this.db.batchGet(
      refs.map((ref) => pullRequestKey(ref.repository, ref.number)),
      { consistent: true },
    );
    const byKey = new Map(items.map((item) => [String(item.pk), String(item.issueId)]));
    const ids = refs.flatMap((ref) => byKey.get(pullRequestKey(ref.repository, ref.number).pk) ?? []);
    return [...new Set(ids)];
  }
}

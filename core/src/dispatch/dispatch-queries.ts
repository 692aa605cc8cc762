/**
 * @module dispatch/dispatch-queries — reading dispatches: by ids, pages of a listing, an issue's,
 * the open ones' claims, the activities of one, and the leases that ran out. Written by
 * ./dispatch-store.ts. Keys: ./keys.ts.
 */
import { decodeTime } from "ulid";
import type { Db } from "../db/db.js";
import { type EntryFilter, ListingIndex } from "../db/listing-index.js";
import { activityFromItem, fromItem, OPEN_STATUSES, type StoredDispatch } from "./dispatch-item.js";
import {
  activityPartition,
  agentListing,
  DISPATCH_LISTINGS,
  dispatchKey,
  LEASE_PARTITION_KEY,
  padActivitySequence,
} from "./keys.js";
import type { Activity, Dispatch } from "./schemas.js";

export class DispatchQueries {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, DISPATCH_LISTINGS);
  }

  async getMany(ids: string[]): Promise<StoredDispatch[]> {
    const items = await this.db.batchGet(ids.map(dispatchKey), { consistent: true });
    return items.map(fromItem);
  }

  /** Up to `limit` activities of a dispatch after sequence `after`, oldest first: one query. */
  async activitiesAfter(dispatchId: string, after: number, limit: number): Promise<Activity[]> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk > :after",
      ExpressionAttributeValues: { ":pk": activityPartition(dispatchId), ":after": padActivitySequence(after) },
      ConsistentRead: true,
      Limit: limit,
    });
    return (out.Items ?? []).map(activityFromItem);
  }

  /** Dispatches whose lease ended before `now`, oldest first (at most `limit`). */
  async leasesEndedBy(now: string, limit: number): Promise<string[]> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND sk < :now",
      ExpressionAttributeValues: { ":pk": LEASE_PARTITION_KEY, ":now": now },
      ConsistentRead: true,
      Limit: limit,
    });
    return (out.Items ?? []).map((item) => String(item.dispatchId));
  }

  /** A page of dispatches, newest first, from the narrowest listing the filters name. */
  async list(
    filters: { status?: string; issueId?: string; agent?: string },
    page: { offset: number; limit: number },
    projectIds: readonly string[] | null = null,
  ) {
    const named: [keyof typeof filters, string][] = [];
    if (filters.issueId) named.push(["issueId", `issue=${filters.issueId}`]);
    if (filters.agent) named.push(["agent", agentListing(filters.agent)]);
    if (filters.status) named.push(["status", `status=${filters.status}`]);
    const [first, ...rest] = named;
    const entryFilters: EntryFilter[] = rest.map(([field]) => ({
      attribute: field,
      value: String(filters[field]),
      match: "equals",
    }));
    if (projectIds) entryFilters.push({ attribute: "projectId", values: [...projectIds], match: "in" });
    const request = { order: "desc" as const, ...page };
    const listing = first?.[1] ?? "all";
    const { entries, total } =
      entryFilters.length === 0
        ? await this.listings.page(listing, request)
        : await this.listings.walk(listing, entryFilters, request);
    const dispatches = await this.getMany(entries.map((entry) => String(entry.id)));
    return { dispatches: dispatches.map(({ dispatch }) => dispatch), total };
  }

  /**
   * The agent and claim time of every open dispatch (active or waiting), from the `status=` listings'
   * entries alone (no dispatch is read): as many reads as pages of open dispatches.
   */
  async activeClaims(): Promise<{ agent: string; claimedAt: string }[]> {
    const walks = await Promise.all(
      OPEN_STATUSES.map((status) =>
        this.listings.walk(`status=${status}`, [], { order: "asc", offset: 0, limit: Number.MAX_SAFE_INTEGER }),
      ),
    );
    return walks
      .flatMap(({ entries }) => entries)
      .map((entry) => ({
        agent: String(entry.agent),
        claimedAt: new Date(decodeTime(String(entry.id).slice("dsp_".length))).toISOString(),
      }));
  }

  /** Every dispatch of an issue, oldest first (an issue has a few). */
  async ofIssue(issueId: string): Promise<Dispatch[]> {
    const { entries } = await this.listings.walk(`issue=${issueId}`, [], {
      order: "asc",
      offset: 0,
      limit: Number.MAX_SAFE_INTEGER,
    });
    return (await this.getMany(entries.map((entry) => String(entry.id)))).map(({ dispatch }) => dispatch);
  }
}

/**
 * @module signals/signal-queries — the signal reads: one signal with its whole payload
 * (./signal-reads.ts), heads by id, listing pages, and the counts behind the dashboard's signals per
 * hour. Read only; every signal write is ./signal-store.ts's. Keys and access patterns: ./keys.ts.
 */
import type { Db } from "../db/db.js";
import { type EntryFilter, ListingIndex } from "../db/listing-index.js";
import { SIGNAL_LISTINGS, signalKey, signalSourceKey, timeFloor } from "./keys.js";
import { SignalReads, toHead } from "./signal-reads.js";
import type { SignalHead } from "./signal-store.js";

export interface SignalListRequest {
  filters: { source?: string; type?: string; severity?: string; action?: string; issueId?: string };
  /** Only these projects' signals (a key narrowed to projects, docs/security.md#projects). */
  projectIds?: readonly string[] | null;
  since?: string;
  order: "asc" | "desc";
  offset: number;
  limit: number;
}

export class SignalQueries extends SignalReads {
  private readonly listings: ListingIndex;

  constructor(db: Db) {
    super(db);
    this.listings = new ListingIndex(db, SIGNAL_LISTINGS);
  }

  /** The manual sources ever registered. */
  async manualSources(): Promise<string[]> {
    const items = await this.db.queryPartition(signalSourceKey("").pk);
    return items.map((item) => String(item.source));
  }

  /**
   * Signals per hour and source since the hour of `since`: the `source=` listings' own bucket
   * counts (one bucket an hour), one query per source.
   */
  async hourlyBySource(sources: string[], since: number): Promise<{ source: string; hour: string; count: number }[]> {
    const from = SIGNAL_LISTINGS.bucketOf(timeFloor(since));
    const rows = await Promise.all(
      sources.map(async (source) =>
        (await this.listings.bucketCounts(`source=${source}`, from)).map(({ bucket, count }) => ({
          source,
          hour: bucket,
          count,
        })),
      ),
    );
    return rows.flat();
  }

  /** Signal heads (no payload) by id, in the order asked, in one call. */
  async heads(ids: string[]): Promise<SignalHead[]> {
    const items = await this.db.batchGet(ids.map(signalKey), { consistent: true });
    return items.map(toHead);
  }

  /**
   * A page of signals, newest first unless asked otherwise. One filter (or none) is paged from
   * the listing's counts; several, or `since`, walk the narrow entries of one listing.
   */
  async list({
    filters,
    projectIds,
    since,
    order,
    offset,
    limit,
  }: SignalListRequest): Promise<{ signals: SignalHead[]; total: number }> {
    const listings: { name: string; filter: EntryFilter }[] = [];
    const add = (attribute: string, prefix: string, value: string | undefined) => {
      if (value !== undefined)
        listings.push({ name: `${prefix}=${value}`, filter: { attribute, value, match: "equals" } });
    };
    add("issueId", "issue", filters.issueId);
    add("type", "type", filters.type);
    add("source", "source", filters.source);
    add("action", "action", filters.action);
    add("severity", "severity", filters.severity);
    const [driving, ...others] = listings;
    const narrowing: EntryFilter[] = projectIds
      ? [{ attribute: "projectId", values: [...projectIds], match: "in" }]
      : [];
    const page = { order, offset, limit };
    const { entries, total } =
      others.length === 0 && narrowing.length === 0 && since === undefined
        ? await this.listings.page(driving?.name ?? "all", page)
        : await this.listings.walk(
            driving?.name ?? "all",
            [...others.map((listing) => listing.filter), ...narrowing],
            since === undefined ? page : { ...page, from: timeFloor(Date.parse(since)) },
          );
    return { signals: await this.heads(entries.map((entry) => String(entry.id))), total };
  }

  /**
   * A page of the signals linked to any of `issueIds` (an issue and those merged into it), newest
   * first: each one's listing read up to the page's end, merged by arrival. Merges are rare and
   * few, so the reads stay few.
   */
  async listOfIssues(
    issueIds: string[],
    { offset, limit }: { offset: number; limit: number },
  ): Promise<{ signals: SignalHead[]; total: number }> {
    const pages = await Promise.all(
      issueIds.map((id) => this.listings.page(`issue=${id}`, { order: "desc", offset: 0, limit: offset + limit })),
    );
    const entries = pages
      .flatMap((page) => page.entries)
      .sort((a, b) => (String(a.sk) < String(b.sk) ? 1 : String(a.sk) > String(b.sk) ? -1 : 0))
      .slice(offset, offset + limit);
    const total = pages.reduce((sum, page) => sum + page.total, 0);
    return { signals: await this.heads(entries.map((entry) => String(entry.id))), total };
  }
}

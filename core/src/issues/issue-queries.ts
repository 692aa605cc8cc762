/**
 * @module issues/issue-queries — the issue reads that walk or count listings: one page of issues under
 * any filters and order (its plan: ./list-plan.ts), and the counts the catalog's rules ask for.
 * Read only; every issue write is ./issue-store.ts's. Apart from the store so the functions that only
 * move issues (claims, signals) do not carry the list planner.
 */
import type { Db, Item } from "../db/db.js";
import { type EntryFilter, ListingIndex } from "../db/listing-index.js";
import type { StoredIssue } from "./issue-item.js";
import type { IssueStore } from "./issue-store.js";
import { ISSUE_LISTINGS, ISSUE_PRIORITY_LISTINGS, ISSUE_UPDATED_LISTINGS, type Listing, listingName } from "./keys.js";
import {
  byPriorityThenNumber,
  entryFilter,
  type IssueQuery,
  multiValuedFilters,
  selectivity,
  singleValuedListings,
} from "./list-plan.js";
import { ISSUE_STATUSES, type IssueStatus } from "./schemas.js";

export class IssueQueries {
  /** Issues by number, per filterable value. */
  private readonly byNumber: ListingIndex;
  /** All issues by priority rank, then number. */
  private readonly byPriority: ListingIndex;
  /** All issues by last update. */
  private readonly byUpdate: ListingIndex;

  constructor(
    db: Db,
    /** Reads the issues a page names. */
    private readonly store: Pick<IssueStore, "getMany">,
  ) {
    this.byNumber = new ListingIndex(db, ISSUE_LISTINGS);
    this.byPriority = new ListingIndex(db, ISSUE_PRIORITY_LISTINGS);
    this.byUpdate = new ListingIndex(db, ISSUE_UPDATED_LISTINGS);
  }

  /** How many live issues carry the label (from the label listing's counts). */
  async countWithLabel(name: string): Promise<number> {
    return this.byNumber.count(listingName({ field: "label", value: name }));
  }

  /** How many live children an issue has. */
  async countChildren(id: string): Promise<number> {
    return this.byNumber.count(listingName({ field: "parent", value: id }));
  }

  /** Live issues of a project per status, every status present (reads the project listing's narrow entries). */
  async statusCountsOfProject(projectId: string): Promise<Record<IssueStatus, number>> {
    const counts = await this.byNumber.countBy(listingName({ field: "project", value: projectId }), "status");
    return Object.fromEntries(ISSUE_STATUSES.map((status) => [status, counts[status] ?? 0])) as Record<
      IssueStatus,
      number
    >;
  }

  /**
   * One page of issues and the count of all matches. Served from counts (three calls whatever
   * the page) when at most one single-valued condition applies and the order has an index of its
   * own; otherwise the narrow entries of the most selective listing are walked, filtered on the
   * entries, and ordered before paging.
   */
  async list(query: IssueQuery): Promise<{ issues: StoredIssue[]; total: number }> {
    const { entries, total } = await this.listEntries(query);
    const issues = await this.store.getMany(entries.map((entry) => String(entry.id)));
    return { issues, total };
  }

  private async listEntries(query: IssueQuery) {
    const page = { offset: query.offset, limit: query.limit };
    const listings = singleValuedListings(query);
    const filters = multiValuedFilters(query);
    const plain = filters.length === 0 && listings.length === 0;
    if (query.sort === "priority") {
      if (plain) return this.byPriority.page("all", { ...page, order: "asc" });
      return this.walk(listings, filters, { ...page, order: "asc", sort: byPriorityThenNumber });
    }
    if (query.sort === "-updatedAt") {
      const everyCondition = [...listings.map(entryFilter), ...filters];
      if (everyCondition.length === 0) return this.byUpdate.page("all", { ...page, order: "desc" });
      return this.byUpdate.walk("all", everyCondition, { ...page, order: "desc" });
    }
    const order = query.sort === "-createdAt" ? "desc" : "asc";
    const [only, ...more] = listings;
    if (filters.length === 0 && more.length === 0) {
      return this.byNumber.page(listingName(only ?? { field: "all" }), { ...page, order });
    }
    return this.walk(listings, filters, { ...page, order });
  }

  private walk(
    listings: Listing[],
    filters: EntryFilter[],
    request: { offset: number; limit: number; order: "asc" | "desc"; sort?: (a: Item, b: Item) => number },
  ) {
    const [driving = { field: "all" as const }, ...others] = [...listings].sort(
      (a, b) => selectivity(a) - selectivity(b),
    );
    return this.byNumber.walk(listingName(driving), [...others.map(entryFilter), ...filters], request);
  }
}

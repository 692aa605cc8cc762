/**
 * @module issues/list-plan — how a list query maps onto listings (pure): which conditions one
 * listing answers, which are checked on walked entries, which listing drives a walk, and the
 * priority order.
 */
import type { Item } from "../db/db.js";
import type { EntryFilter } from "../db/listing-index.js";
import type { Listing } from "./keys.js";

/** What a list asks: conditions all issues must meet, an order and a page. */
export interface IssueQuery {
  statuses?: string[];
  types?: string[];
  priority?: number;
  projectId?: string;
  /** Only these projects' issues (a key narrowed to projects, docs/security.md#projects). */
  projectIds?: readonly string[] | undefined;
  parentId?: string;
  label?: string;
  fingerprint?: string;
  /** Case-insensitive substring of the title. */
  q?: string;
  sort: "-createdAt" | "createdAt" | "number" | "priority" | "-updatedAt";
  offset: number;
  limit: number;
}

/** Rough size order of a listing, smallest first: the driving listing of a combined filter. */
export function selectivity(listing: Listing): number {
  return ["fingerprint", "parent", "label", "project", "status", "priority", "type", "all"].indexOf(listing.field);
}

/** The check a combined filter makes on listing entries for one more listing. */
export function entryFilter(listing: Listing): EntryFilter {
  if (listing.field === "all") throw new Error("`all` is never a filter");
  if (listing.field === "label") return { attribute: "labels", value: listing.value, match: "contains" };
  const attribute = { project: "projectId", parent: "parentId" }[listing.field as string] ?? listing.field;
  return { attribute, value: listing.value, match: "equals" };
}

/** Conditions that one listing answers exactly (one value of one field). */
export function singleValuedListings(query: IssueQuery): Listing[] {
  const listings: Listing[] = [];
  if (query.statuses?.length === 1 && query.statuses[0]) listings.push({ field: "status", value: query.statuses[0] });
  if (query.types?.length === 1 && query.types[0]) listings.push({ field: "type", value: query.types[0] });
  if (query.priority !== undefined) listings.push({ field: "priority", value: query.priority });
  const project = query.projectId ?? (query.projectIds?.length === 1 ? query.projectIds[0] : undefined);
  if (project !== undefined) listings.push({ field: "project", value: project });
  if (query.parentId !== undefined) listings.push({ field: "parent", value: query.parentId });
  if (query.label !== undefined) listings.push({ field: "label", value: query.label });
  if (query.fingerprint !== undefined) listings.push({ field: "fingerprint", value: query.fingerprint });
  return listings;
}

/** Conditions no single listing answers: several values of a field, and the title search. */
export function multiValuedFilters(query: IssueQuery): EntryFilter[] {
  const filters: EntryFilter[] = [];
  if (query.statuses && query.statuses.length > 1)
    filters.push({ attribute: "status", values: query.statuses, match: "in" });
  if (query.types && query.types.length > 1) filters.push({ attribute: "type", values: query.types, match: "in" });
  if (query.projectId === undefined && query.projectIds && query.projectIds.length !== 1)
    filters.push({ attribute: "projectId", values: [...query.projectIds], match: "in" });
  if (query.q !== undefined) filters.push({ attribute: "titleLower", value: query.q.toLowerCase(), match: "contains" });
  return filters;
}

/** Most urgent first (1..4, then 0 for none), then by number. */
export function byPriorityThenNumber(a: Item, b: Item): number {
  const rank = (entry: Item) => (Number(entry.priority) === 0 ? 5 : Number(entry.priority));
  return rank(a) - rank(b) || Number(a.number) - Number(b.number);
}

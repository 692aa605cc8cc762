/** @module issues/service — issue rules: defaults on create, lookups by id or `KZN-<n>`, list filters to listings. */
import { NotFoundError } from "../errors.js";
import { pageOffset } from "../http/pagination.js";
import { type Listing, parseIssueRef } from "./keys.js";
import type { CreateIssueBody, ListIssuesQuery } from "./schemas.js";
import type { IssueStore, NewIssue, StoredIssue } from "./store.js";

/** Shape of an issue id (`iss_` + ULID). */
export const ISSUE_ID = /^iss_[0-9A-HJKMNP-TV-Z]{26}$/;

export class IssueService {
  constructor(private readonly store: IssueStore) {}

  /** Creates an issue in `triage` (or the given status); `completedAt` is set for finished ones. */
  async createIssue(input: CreateIssueBody): Promise<StoredIssue> {
    return this.store.create(
      newIssue({
        ...input,
        hypothesis: input.hypothesis ? { ...input.hypothesis, prediction: input.hypothesis.prediction ?? null } : null,
      }),
    );
  }

  /** By `iss_…` id or `KZN-<number>`; 404 for anything else or nothing found. */
  async getIssue(ref: string): Promise<StoredIssue> {
    const number = parseIssueRef(ref);
    const found =
      number !== undefined
        ? await this.store.getByNumber(number)
        : ISSUE_ID.test(ref)
          ? await this.store.get(ref)
          : undefined;
    if (!found) throw new NotFoundError(`Issue ${ref} not found`);
    return found;
  }

  async listIssues(query: ListIssuesQuery) {
    const listings: Listing[] = [];
    if (query.status !== undefined) listings.push({ field: "status", value: query.status });
    if (query.type !== undefined) listings.push({ field: "type", value: query.type });
    if (query.priority !== undefined) listings.push({ field: "priority", value: query.priority });
    if (query.projectId !== undefined) listings.push({ field: "project", value: query.projectId });
    if (query.label !== undefined) listings.push({ field: "label", value: query.label });
    return this.store.list({
      listings,
      order: query.sort === "createdAt" ? "asc" : "desc",
      offset: pageOffset(query),
      limit: query.limit,
    });
  }
}

/**
 * A complete set of new-issue fields: the given ones over the defaults of API.md 3.2 (status
 * `triage`, priority 0, empty lists, nulls), with `completedAt` set for a finished status.
 * @example newIssue({ title: "Checkout fails", type: "signal" })
 */
export function newIssue(fields: Partial<NewIssue> & Pick<NewIssue, "title" | "type">): NewIssue {
  const status = fields.status ?? "triage";
  return {
    description: null,
    priority: 0,
    parentId: null,
    projectId: null,
    labels: [],
    fingerprint: null,
    signalSource: null,
    signalCount: 0,
    lastSignalAt: null,
    hypothesis: null,
    agentSummary: null,
    commits: [],
    pullRequests: [],
    blockedBy: [],
    completedAt: status === "done" || status === "canceled" ? new Date().toISOString() : null,
    ...withoutUndefined(fields),
    title: fields.title,
    type: fields.type,
    status,
  };
}

function withoutUndefined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

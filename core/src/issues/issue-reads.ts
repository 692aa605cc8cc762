/**
 * @module issues/issue-reads — reading issue items: by id, by `KZN-<number>` (the number index, or
 * the listing entry while the index lags), with their children and relation edges, many at once.
 * ./issue-store.ts, the owner of issue items, extends it with the writes; what only reads issues (a
 * key's reach, a prompt's context, the dashboard) is handed this, and its function carries no
 * issue writes (docs/architecture.md#layers).
 */
import type { Db, Item } from "../db/db.js";
import { NotFoundError } from "../errors.js";
import { fromItem, type IssueAggregate, type StoredIssue, summaryItem } from "./issue-item.js";
import {
  CHILD_POINTER_PREFIX,
  ISSUE_ENTITY,
  ISSUE_ID,
  issueKey,
  issueNumberIndexKey,
  numberEntryKey,
  PENDING_SIGNAL_PREFIX,
  parseIssueRef,
  RELATION_EDGE_PREFIX,
} from "./keys.js";
import type { Issue } from "./schemas.js";

export class IssueReads {
  constructor(protected readonly db: Db) {}

  /** A live issue by id (deleted ones read as absent). */
  async get(id: string): Promise<StoredIssue | undefined> {
    const item = await this.db.get(issueKey(id), { consistent: true });
    return item && !item.deletedAt ? fromItem(item) : undefined;
  }

  /**
   * A live issue as a signal to be linked to it finds it: one query reads the item and the first
   * signal waiting beside it, so that `signalsWaiting` says whether a storm is being folded into it.
   */
  async getForSignal(id: string): Promise<StoredIssue | undefined> {
    const out = await this.db.query({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
      ExpressionAttributeValues: { ":pk": issueKey(id).pk, ":sk": ISSUE_ENTITY },
      ConsistentRead: true,
      Limit: 2,
    });
    const [head, next] = out.Items ?? [];
    if (!head || head.sk !== ISSUE_ENTITY || head.deletedAt) return undefined;
    return { ...fromItem(head), signalsWaiting: String(next?.sk ?? "").startsWith(PENDING_SIGNAL_PREFIX) };
  }

  /**
   * An issue with its children and relation edges: they share its partition, so this is one
   * query (more only past 1 MB). Deleted issues read as absent.
   */
  async getAggregate(id: string): Promise<IssueAggregate | undefined> {
    const items = await this.db.queryPartition(issueKey(id).pk);
    const head = items.find((item) => item.sk === issueKey(id).sk);
    if (!head || head.deletedAt) return undefined;
    return {
      stored: fromItem(head),
      children: items
        .filter((item) => String(item.sk).startsWith(CHILD_POINTER_PREFIX))
        .map((item) => summaryItem(item as unknown as Issue)),
      relationEdges: items.filter((item) => String(item.sk).startsWith(RELATION_EDGE_PREFIX)),
    };
  }

  /** Whether `ref` names an issue that was deleted (a live or unknown one: false). */
  async isDeleted(ref: string): Promise<boolean> {
    const number = parseIssueRef(ref);
    if (number !== undefined) return Boolean((await this.indexedByNumber(number))?.deletedAt);
    if (!ISSUE_ID.test(ref)) return false;
    const item = await this.db.get(issueKey(ref), { consistent: true });
    return Boolean(item?.deletedAt);
  }

  /** Live issues by id, in the order asked, in one call per hundred. */
  async getMany(ids: string[]): Promise<StoredIssue[]> {
    const items = await this.db.batchGet(ids.map(issueKey), { consistent: true });
    return items.filter((item) => !item.deletedAt).map(fromItem);
  }

  /** By `iss_…` id or `KZN-<number>`; undefined for anything else, or nothing found (deleted included). */
  async getByRef(ref: string): Promise<StoredIssue | undefined> {
    const number = parseIssueRef(ref);
    if (number !== undefined) return this.getByNumber(number);
    return ISSUE_ID.test(ref) ? this.get(ref) : undefined;
  }

  /** By `iss_…` id or `KZN-<number>`, or the 404 `Issue <ref> not found` (docs/api.md#status-codes). */
  async require(ref: string): Promise<StoredIssue> {
    const found = await this.getByRef(ref);
    if (!found) throw new NotFoundError(`Issue ${ref} not found`);
    return found;
  }

  /** By `number`: one index query, or the strongly consistent listing entry while the index lags. */
  async getByNumber(number: number): Promise<StoredIssue | undefined> {
    const indexed = await this.indexedByNumber(number);
    if (indexed) return indexed.deletedAt ? undefined : fromItem(indexed);
    const entry = await this.db.get(numberEntryKey(number), { consistent: true });
    return typeof entry?.id === "string" ? this.get(entry.id) : undefined;
  }

  /** The item the number index holds for `number` (deleted ones too), if it has caught up with it. */
  private async indexedByNumber(number: number): Promise<Item | undefined> {
    const { gsi1pk, gsi1sk } = issueNumberIndexKey(number);
    const out = await this.db.query({
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
      ExpressionAttributeValues: { ":pk": gsi1pk, ":sk": gsi1sk },
      Limit: 1,
    });
    return out.Items?.[0];
  }
}

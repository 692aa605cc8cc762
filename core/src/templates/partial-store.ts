/**
 * @module templates/partial-store — every DynamoDB expression about partials (docs/api.md#partials): a
 * partial with its listing entry, and the uses recorded beside it of the versions and partials that
 * include it. Keys: ./keys.ts.
 */
import type { Db, Item, Key, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { ListingIndex } from "../db/listing-index.js";
import {
  PARTIAL_LISTINGS,
  PARTIAL_NAME,
  PARTIAL_USE_PREFIX,
  type PartialHolder,
  partialKey,
  partialUseKey,
  templateKey,
  versionKey,
} from "./keys.js";
import type { TemplatePartial } from "./partial-schemas.js";
import type { CompiledTemplate } from "./render.js";

/** A partial as stored: its fields, its version (the `ETag`), its uses so far, the partials it includes. */
export interface StoredPartial {
  partial: TemplatePartial;
  version: number;
  /** Grows with every use recorded: a delete holds only if none was recorded since it read the uses. */
  uses: number;
  /** The partials its content includes, by name. */
  includes: string[];
  compiled: CompiledTemplate | undefined;
}

/** A version that includes a partial, as its use records it and its items now say. */
export interface VersionUse {
  versionId: string;
  templateId: string;
  versionNumber: number;
  /** Null when the version or its template is gone. */
  status: "draft" | "active" | "retired" | null;
  /** The template's slug now; null once it is deleted. */
  slug: string | null;
}

/** Who includes a partial: versions (with their status now) and partials. */
export interface PartialUses {
  versions: VersionUse[];
  partials: string[];
  /** Keys of the use records, to delete with the partial. */
  keys: Key[];
}

// Named condition fragments.
/** The key is new. */
const itemAbsent = "attribute_not_exists(pk)";
/** The partial exists. */
const partialExists = "attribute_exists(pk)";
/** The partial is as it was read. */
const versionUnchanged = "#version = :expectedVersion";
/** No use was recorded since the partial was read. */
const usesUnchanged = "(attribute_not_exists(#uses) OR #uses = :uses)";

const FIELDS = ["name", "content", "description", "createdAt", "updatedAt"] as const;

export class PartialStore {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, PARTIAL_LISTINGS);
  }

  async get(name: string): Promise<StoredPartial | undefined> {
    if (!PARTIAL_NAME.test(name)) return undefined;
    const item = await this.db.get(partialKey(name), { consistent: true });
    return item ? partialFromItem(item) : undefined;
  }

  /** The partials of `names` that exist, by name: one read (names that cannot exist are not asked for). */
  async getMany(names: readonly string[]): Promise<Map<string, StoredPartial>> {
    const asked = [...new Set(names)].filter((name) => PARTIAL_NAME.test(name));
    if (asked.length === 0) return new Map();
    const items = await this.db.batchGet(
      asked.map((name) => partialKey(name)),
      { consistent: true },
    );
    return new Map(items.map((item) => [String(item.name), partialFromItem(item)]));
  }

  /** A page of partials by name, and how many there are. */
  async list(page: { offset: number; limit: number }): Promise<{ partials: StoredPartial[]; total: number }> {
    const { entries, total } = await this.listings.page("all", { order: "asc", ...page });
    const items = await this.db.batchGet(
      entries.map((entry) => partialKey(String(entry.name))),
      { consistent: true },
    );
    return { partials: items.map(partialFromItem), total };
  }

  /**
   * The writes that create `partial` (the first, conditioned on its name being free) with its
   * listing entry and its uses of the partials it includes (each as read while checking them).
   */
  prepareCreate(
    partial: TemplatePartial,
    compiled: CompiledTemplate | undefined,
    includes: StoredPartial[],
  ): TransactItem[] {
    return [
      {
        Put: {
          Item: {
            ...partialKey(partial.name),
            entity: entityOf("partial"),
            ...partial,
            version: 1,
            uses: 0,
            includes: includes.map((included) => included.partial.name),
            ...(compiled ? { compiled } : {}),
          },
          ConditionExpression: itemAbsent,
        },
      },
      ...this.listings.additions(["all"], partial.name, { name: partial.name }),
      ...this.prepareUses(includes, { partial: partial.name }, true),
    ];
  }

  /**
   * The writes that replace `current` by `updated` at the version read (the first), moving its uses
   * from the partials it included to those it now includes (`includes`, as read).
   */
  prepareUpdate(
    current: StoredPartial,
    updated: TemplatePartial,
    compiled: CompiledTemplate | undefined,
    includes: StoredPartial[],
  ): TransactItem[] {
    const names = includes.map((included) => included.partial.name);
    const dropped = current.includes.filter((name) => !names.includes(name));
    return [
      {
        Update: {
          Key: partialKey(updated.name),
          UpdateExpression:
            "SET #content = :content, #description = :description, #updatedAt = :updatedAt, " +
            "#includes = :includes, #version = :nextVersion" +
            (compiled ? ", #compiled = :compiled" : " REMOVE #compiled"),
          ConditionExpression: `${partialExists} AND ${versionUnchanged}`,
          ExpressionAttributeNames: {
            "#content": "content",
            "#description": "description",
            "#updatedAt": "updatedAt",
            "#includes": "includes",
            "#version": "version",
            "#compiled": "compiled",
          },
          ExpressionAttributeValues: {
            ":content": updated.content,
            ":description": updated.description,
            ":updatedAt": updated.updatedAt,
            ":includes": names,
            ":expectedVersion": current.version,
            ":nextVersion": current.version + 1,
            ...(compiled ? { ":compiled": compiled } : {}),
          },
        },
      },
      ...dropped.map((name) => ({ Delete: { Key: partialUseKey(name, { partial: updated.name }) } })),
      ...this.prepareUses(includes, { partial: updated.name }, true),
    ];
  }

  /**
   * The writes that delete `current`, held only while it is as read and no use was recorded since
   * `uses` were read (a version made meanwhile that includes it makes the delete read again), with
   * the use records read and its own uses of the partials it includes.
   */
  prepareDelete(current: StoredPartial, uses: PartialUses): TransactItem[] {
    const name = current.partial.name;
    return [
      {
        Delete: {
          Key: partialKey(name),
          ConditionExpression: `${versionUnchanged} AND ${usesUnchanged}`,
          ExpressionAttributeNames: { "#version": "version", "#uses": "uses" },
          ExpressionAttributeValues: { ":expectedVersion": current.version, ":uses": current.uses },
        },
      },
      ...this.listings.removals(["all"], name),
      ...current.includes.map((included) => ({ Delete: { Key: partialUseKey(included, { partial: name }) } })),
      ...uses.keys.map((key) => ({ Delete: { Key: key } })),
    ];
  }

  /**
   * The writes that record `holder`'s use of each partial of `partials`: each must still exist (and,
   * with `asRead`, be as read, so that the includes checked for a cycle did not change meanwhile),
   * and its count of uses grows, so a delete that read its uses before this fails.
   */
  prepareUses(partials: StoredPartial[], holder: PartialHolder, asRead = false): TransactItem[] {
    return partials.flatMap(({ partial, version }) => [
      {
        Update: {
          Key: partialKey(partial.name),
          UpdateExpression: "ADD #uses :one",
          ConditionExpression: asRead ? `${partialExists} AND ${versionUnchanged}` : partialExists,
          ExpressionAttributeNames: { "#uses": "uses", ...(asRead ? { "#version": "version" } : {}) },
          ExpressionAttributeValues: { ":one": 1, ...(asRead ? { ":expectedVersion": version } : {}) },
        },
      },
      {
        Put: {
          Item: {
            ...partialUseKey(partial.name, holder),
            entity: entityOf("partialuse"),
            ...holder,
          },
        },
      },
    ]);
  }

  async transact(writes: TransactItem[]): Promise<void> {
    await this.db.transactWrite(writes);
  }

  /** Checks that each of `partials` is still as read: a cycle check read through them. */
  prepareUnchanged(partials: StoredPartial[]): TransactItem[] {
    return partials.map(({ partial, version }) => ({
      ConditionCheck: {
        Key: partialKey(partial.name),
        ConditionExpression: versionUnchanged,
        ExpressionAttributeNames: { "#version": "version" },
        ExpressionAttributeValues: { ":expectedVersion": version },
      },
    }));
  }

  /**
   * Who includes partial `name`: its use records, with each version's status and template slug now
   * (versions and templates read in one BatchGet each).
   */
  async usesOf(name: string): Promise<PartialUses> {
    const records = await this.db.queryAll({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": partialKey(name).pk, ":prefix": PARTIAL_USE_PREFIX },
      ConsistentRead: true,
    });
    const byVersion = records.filter((record) => typeof record.versionId === "string");
    const [versions, templates] = await Promise.all([
      this.db.batchGet(
        byVersion.map((record) => versionKey(String(record.templateId), Number(record.versionNumber))),
        { consistent: true },
      ),
      this.db.batchGet(
        [...new Set(byVersion.map((record) => String(record.templateId)))].map((id) => templateKey(id)),
        { consistent: true },
      ),
    ]);
    const statusOf = new Map(versions.map((item) => [String(item.id), item.status as VersionUse["status"]]));
    const templateOf = new Map(templates.map((item) => [String(item.id), item]));
    return {
      versions: byVersion.map((record) => {
        const template = templateOf.get(String(record.templateId));
        const live = template !== undefined && template.deletedAt === undefined;
        return {
          versionId: String(record.versionId),
          templateId: String(record.templateId),
          versionNumber: Number(record.versionNumber),
          status: live ? (statusOf.get(String(record.versionId)) ?? null) : null,
          slug: live ? String(template.slug) : null,
        };
      }),
      partials: records.filter((record) => typeof record.partial === "string").map((record) => String(record.partial)),
      keys: records.map((record) => ({ pk: record.pk, sk: record.sk }) as Key),
    };
  }
}

/** A partial from its item. */
export function partialFromItem(item: Item): StoredPartial {
  const partial = Object.fromEntries(FIELDS.map((field) => [field, item[field] ?? null])) as TemplatePartial;
  return {
    partial,
    version: Number(item.version ?? 1),
    uses: Number(item.uses ?? 0),
    includes: Array.isArray(item.includes) ? item.includes.map(String) : [],
    compiled: item.compiled instanceof Uint8Array ? item.compiled : undefined,
  };
}

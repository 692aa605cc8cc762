/**
 * @module templates/template-store — every DynamoDB expression about templates, their versions and slugs:
 * a template with its slug claim and listing entry, versions numbered without gaps, promotion in
 * one transaction, versions read with the counts ./version-counts.ts keeps beside them. Keys: ./keys.ts.
 */
import type { Db, Item, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { ListingIndex } from "../db/listing-index.js";
import { sumSpreadCounts } from "../db/spread.js";
import {
  isVersionReviewsSortKey,
  isVersionSortKey,
  SLUG,
  slugKey,
  TEMPLATE_ID,
  TEMPLATE_LISTINGS,
  templateKey,
  templateSortKey,
  VERSION_COUNTS,
  type VersionCount,
  versionCountOfSortKey,
  versionKey,
  versionNumberOfSortKey,
  versionPointerKey,
  versionReviewsKey,
} from "./keys.js";
import type { CompiledTemplate } from "./render.js";
import type { RunningExperiment, Template, TemplateVersion } from "./schemas.js";
import {
  entryOf,
  REVIEW_FIELDS,
  reviewsFromItem,
  runningExperimentOf,
  type StoredTemplate,
  type StoredVersion,
  TEMPLATE_FIELDS,
  type TemplateEntry,
  templateFromItem,
  templateItem,
  type VersionReviews,
  versionFromItem,
  versionReviewsOf,
} from "./template-item.js";
import {
  improvementMarkWrite,
  itemAbsent,
  releaseSlug,
  reviewFoldWrite,
  versionStatus,
  versionWrites,
} from "./template-writes.js";

// Named condition fragments.
/** The template exists and is not deleted. */
const templateLive = "attribute_exists(pk) AND attribute_not_exists(#deletedAt)";
/** The template is as it was read. */
const versionUnchanged = "#version = :expectedVersion";
/** No version was made since the template was read: the next number is still free. */
const versionCountIs = "#versionCount = :versionCount";

/** What renders a version: its content, precompiled form and the partials it includes. */
export interface VersionSource {
  id: string;
  content: string;
  compiled: CompiledTemplate | undefined;
  includes: string[];
}

/** Sources of versions read in this process, by version id (they never change); the oldest go first. */
const sourceCache = new Map<string, VersionSource>();
const SOURCE_CACHE_LIMIT = 500;

/** Index of the slug claim in a create's transaction, to tell a taken slug from other failures. */
export const SLUG_CLAIM_INDEX = 1;

export class TemplateStore {
  private readonly listings: ListingIndex;

  constructor(private readonly db: Db) {
    this.listings = new ListingIndex(db, TEMPLATE_LISTINGS);
  }

  /** A template, deleted ones included (callers decide what a deleted one means). */
  async get(id: string): Promise<(StoredTemplate & { deleted: boolean }) | undefined> {
    const item = await this.db.get(templateKey(id), { consistent: true });
    return item ? { ...templateFromItem(item), deleted: item.deletedAt !== undefined } : undefined;
  }

  /** A live template by `tpl_…` id or by slug, or undefined. */
  async resolve(ref: string): Promise<(StoredTemplate & { deleted: false }) | undefined> {
    const id = TEMPLATE_ID.test(ref) ? ref : SLUG.test(ref) ? await this.idOfSlug(ref) : undefined;
    const found = id ? await this.get(id) : undefined;
    return found && !found.deleted ? { ...found, deleted: false } : undefined;
  }

  /** The id of the live template holding `slug`. */
  async idOfSlug(slug: string): Promise<string | undefined> {
    const claim = await this.db.get(slugKey(slug), { consistent: true });
    return claim ? String(claim.templateId) : undefined;
  }

  /**
   * The writes that create `template` (with its slug claim second, see {@link SLUG_CLAIM_INDEX})
   * and, when given, its first version made active (with its precompiled content when there is one).
   */
  prepareCreate(
    template: Template,
    first?: TemplateVersion,
    compiled?: CompiledTemplate,
    includes: readonly string[] = [],
  ): TransactItem[] {
    const stored: StoredTemplate = {
      template,
      version: 1,
      versionCount: first ? 1 : 0,
      activeVersionNumber: first ? 1 : null,
      experiment: null,
    };
    return [
      { Put: { Item: templateItem(stored), ConditionExpression: itemAbsent } },
      {
        Put: {
          Item: {
            ...slugKey(template.slug),
            entity: entityOf("templateslug"),
            templateId: template.id,
            slug: template.slug,
          },
          ConditionExpression: itemAbsent,
        },
      },
      ...this.listings.additions(["all"], templateSortKey(template.id), entryOf(stored)),
      ...(first ? versionWrites(first, compiled, includes) : []),
    ];
  }

  /**
   * The writes that replace `current`'s fields by `updated`'s (and its active version number and
   * running experiment by `internals`') at the version read, moving the slug claim when the slug
   * changes and keeping the listing entry in step.
   */
  prepareUpdate(
    current: StoredTemplate,
    updated: Template,
    internals: Partial<Pick<StoredTemplate, "activeVersionNumber" | "experiment">> = {},
  ) {
    const activeVersionNumber =
      internals.activeVersionNumber === undefined ? current.activeVersionNumber : internals.activeVersionNumber;
    const experiment = internals.experiment === undefined ? current.experiment : internals.experiment;
    const next: StoredTemplate = {
      ...current,
      template: updated,
      version: current.version + 1,
      activeVersionNumber,
      experiment,
    };
    const names: Record<string, string> = { "#version": "version", "#deletedAt": "deletedAt" };
    const values: Record<string, unknown> = {
      ":expectedVersion": current.version,
      ":nextVersion": next.version,
      ":activeVersionNumber": activeVersionNumber,
      ":experiment": experiment,
    };
    const sets = TEMPLATE_FIELDS.filter((field) => field !== "id" && field !== "createdAt").map((field, i) => {
      names[`#f${i}`] = field;
      values[`:f${i}`] = updated[field];
      return `#f${i} = :f${i}`;
    });
    names["#activeVersionNumber"] = "activeVersionNumber";
    names["#experiment"] = "experiment";
    const writes: TransactItem[] = [
      {
        Update: {
          Key: templateKey(updated.id),
          UpdateExpression: `SET ${[
            ...sets,
            "#activeVersionNumber = :activeVersionNumber",
            "#experiment = :experiment",
            "#version = :nextVersion",
          ].join(", ")}`,
          ConditionExpression: `${templateLive} AND ${versionUnchanged}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      ...this.listings.changes(["all"], ["all"], templateSortKey(updated.id), entryOf(next), true),
    ];
    if (updated.slug !== current.template.slug) {
      writes.push(
        {
          Put: {
            Item: {
              ...slugKey(updated.slug),
              entity: entityOf("templateslug"),
              templateId: updated.id,
              slug: updated.slug,
            },
            ConditionExpression: itemAbsent,
          },
        },
        releaseSlug(current.template),
      );
    }
    return { stored: next, writes };
  }

  /** The writes that soft-delete `current`: it leaves the listing and frees its slug; its versions stay for its prompts. */
  prepareDelete(current: StoredTemplate, now: Date): TransactItem[] {
    return [
      {
        Update: {
          Key: templateKey(current.template.id),
          UpdateExpression: "SET #deletedAt = :now, #version = :nextVersion",
          ConditionExpression: `${templateLive} AND ${versionUnchanged}`,
          ExpressionAttributeNames: { "#deletedAt": "deletedAt", "#version": "version" },
          ExpressionAttributeValues: {
            ":now": now.toISOString(),
            ":expectedVersion": current.version,
            ":nextVersion": current.version + 1,
          },
        },
      },
      ...this.listings.removals(["all"], templateSortKey(current.template.id)),
      releaseSlug(current.template),
    ];
  }

  /**
   * The writes that add `version` as number `versionCount + 1` of `current`: they hold only if no
   * other version was made since `current` was read, so numbers never repeat and never skip.
   */
  prepareVersion(
    current: StoredTemplate,
    version: TemplateVersion,
    compiled?: CompiledTemplate,
    includes: readonly string[] = [],
  ): TransactItem[] {
    return [
      {
        Update: {
          Key: templateKey(current.template.id),
          UpdateExpression: "SET #versionCount = :next",
          ConditionExpression: `${templateLive} AND ${versionCountIs}`,
          ExpressionAttributeNames: { "#versionCount": "versionCount", "#deletedAt": "deletedAt" },
          ExpressionAttributeValues: { ":versionCount": current.versionCount, ":next": version.version },
        },
      },
      ...versionWrites(version, compiled, includes),
    ];
  }

  /**
   * The writes that make version `target` active and retire `previous` (if any), with the
   * template's `activeVersionId` moved at the version read: of two concurrent promotions one
   * wins and the other reads again, so exactly one version is ever active.
   */
  preparePromotion(
    current: StoredTemplate,
    target: TemplateVersion,
    now: Date,
    previous?: number,
    experiment: RunningExperiment | null = current.experiment,
  ): TransactItem[] {
    const updated: Template = { ...current.template, activeVersionId: target.id, updatedAt: now.toISOString() };
    const { writes } = this.prepareUpdate(current, updated, { activeVersionNumber: target.version, experiment });
    return [
      ...writes,
      versionStatus(target.templateId, target.version, "active"),
      ...(previous !== undefined && previous !== target.version
        ? [versionStatus(target.templateId, previous, "retired")]
        : []),
    ];
  }

  async transact(writes: TransactItem[]): Promise<void> {
    await this.db.transactWrite(writes);
  }

  /** One version with its usage count: one query. */
  async getVersion(templateId: string, number: number): Promise<StoredVersion | undefined> {
    const [found] = await this.versionRange(templateId, number, number, "asc");
    return found;
  }

  /**
   * What renders version `number` (id `versionId`) of a template: read once per process, since a
   * version's content never changes. Undefined when there is no such version.
   */
  async versionSource(templateId: string, number: number, versionId: string): Promise<VersionSource | undefined> {
    const cached = sourceCache.get(versionId);
    if (cached !== undefined) return cached;
    const found = await this.getVersion(templateId, number);
    if (!found || found.version.id !== versionId) return undefined;
    const source = {
      id: versionId,
      content: found.version.content,
      compiled: found.compiled,
      includes: found.includes,
    };
    sourceCache.set(versionId, source);
    if (sourceCache.size > SOURCE_CACHE_LIMIT) {
      const oldest = sourceCache.keys().next().value;
      if (oldest !== undefined) sourceCache.delete(oldest);
    }
    return source;
  }

  /** Where a version id points. */
  async locateVersion(versionId: string): Promise<{ templateId: string; number: number } | undefined> {
    const pointer = await this.db.get(versionPointerKey(versionId), { consistent: true });
    return pointer ? { templateId: String(pointer.templateId), number: Number(pointer.number) } : undefined;
  }

  /** Versions `from`..`to` (numbers, inclusive) with their usage counts, in the order asked: one query. */
  async versionRange(templateId: string, from: number, to: number, order: "asc" | "desc"): Promise<StoredVersion[]> {
    if (to < from) return [];
    const items = await this.db.queryAll({
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
      ExpressionAttributeValues: {
        ":pk": templateKey(templateId).pk,
        ":from": versionKey(templateId, from).sk,
        // The last version's counts and their shards sort after it, before the next number.
        ":to": `${versionKey(templateId, to).sk}#~`,
      },
      ConsistentRead: true,
      ScanIndexForward: order === "asc",
    });
    const counts = new Map<string, number>();
    const reviews = new Map<number, Item>();
    for (const item of items.filter((item) => isVersionReviewsSortKey(String(item.sk)))) {
      reviews.set(versionNumberOfSortKey(String(item.sk)), item);
    }
    for (const { sk, total } of sumSpreadCounts(
      items.filter((item) => !isVersionSortKey(String(item.sk)) && !isVersionReviewsSortKey(String(item.sk))),
      "count",
    )) {
      counts.set(`${versionNumberOfSortKey(sk)}#${versionCountOfSortKey(sk)}`, total);
    }
    const count = (number: number, kind: VersionCount) => counts.get(`${number}#${kind}`) ?? 0;
    return items
      .filter((item) => isVersionSortKey(String(item.sk)))
      .map((item) => {
        const number = Number(item.version);
        return versionFromItem(
          item,
          reviews.get(number),
          Object.fromEntries(VERSION_COUNTS.map((kind) => [kind, count(number, kind)])) as Record<VersionCount, number>,
        );
      });
  }

  /**
   * Where the reviews of a version stand (strongly consistent): one read of its reviews item; the
   * version's own fields where no fold wrote that item yet. Undefined when there is no such version.
   */
  async reviewsOf(templateId: string, number: number): Promise<VersionReviews | undefined> {
    const tally = await this.db.get(versionReviewsKey(templateId, number), { consistent: true });
    if (tally && tally.reviewsFoldedThrough !== undefined && tally.reviewsFoldedThrough !== null) {
      return reviewsFromItem(tally);
    }
    const item = await this.db.get(versionKey(templateId, number), {
      consistent: true,
      projection: ["pk", ...REVIEW_FIELDS],
    });
    return item ? versionReviewsOf(tally, item) : undefined;
  }

  /** The write that folds reviews into a version's reviews item (see ./template-writes.ts). */
  reviewFold(
    templateId: string,
    number: number,
    read: VersionReviews,
    folded: { foldedThrough: number; reviewCount: number; reviewScore: number | null; improvementIssueId?: string },
  ): TransactItem {
    return reviewFoldWrite(templateId, number, read, folded);
  }

  /** The write that records a version's improvement task opened for its human reviews (see ./template-writes.ts). */
  improvementMark(templateId: string, number: number, issueId: string): TransactItem {
    return improvementMarkWrite(templateId, number, issueId);
  }

  /** A page of live templates, newest first, and how many there are; filters walk the listing. */
  async list(filters: { projectId?: string; type?: string }, page: { offset: number; limit: number }) {
    const request = { order: "desc" as const, ...page };
    const entryFilters = [
      ...(filters.projectId ? [{ attribute: "projectId", value: filters.projectId, match: "equals" as const }] : []),
      ...(filters.type ? [{ attribute: "conditionType", value: filters.type, match: "equals" as const }] : []),
    ];
    const { entries, total } =
      entryFilters.length === 0
        ? await this.listings.page("all", request)
        : await this.listings.walk("all", entryFilters, request);
    const items = await this.db.batchGet(
      entries.map((entry) => templateKey(String(entry.id))),
      { consistent: true },
    );
    return { templates: items.map(templateFromItem), total };
  }

  /** Every live template as selection reads it: one query of the listing's narrow entries. */
  async selectionEntries(): Promise<TemplateEntry[]> {
    const { entries } = await this.listings.walk("all", [], {
      order: "asc",
      offset: 0,
      limit: Number.MAX_SAFE_INTEGER,
    });
    return entries.map((entry) => ({
      id: String(entry.id),
      slug: String(entry.slug),
      conditions: (entry.conditions ?? {}) as Template["conditions"],
      specificity: Number(entry.specificity),
      projectId: (entry.projectId as string | null) ?? null,
      activeVersionId: (entry.activeVersionId as string | null) ?? null,
      activeVersionNumber:
        entry.activeVersionNumber === null || entry.activeVersionNumber === undefined
          ? null
          : Number(entry.activeVersionNumber),
      experiment: runningExperimentOf(entry.experiment),
      createdAt: String(entry.createdAt),
    }));
  }
}

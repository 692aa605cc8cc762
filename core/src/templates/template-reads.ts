/**
 * @module templates/template-reads — the reads of templates, their versions and slugs: a template by id or
 * slug, versions read with the counts ./version-counts.ts keeps beside them, a version's source
 * (read once per process), where its reviews stand, and the listing as pages and as selection
 * reads it. The writes (./template-store.ts) extend these, so what only reads carries none of them.
 * Keys: ./keys.ts.
 */
import type { Db, Item } from "../db/db.js";
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
  VERSION_COUNTS,
  type VersionCount,
  versionCountOfSortKey,
  versionKey,
  versionNumberOfSortKey,
  versionPointerKey,
  versionReviewsKey,
} from "./keys.js";
import type { CompiledTemplate } from "./render.js";
import type { Template } from "./schemas.js";
import {
  REVIEW_FIELDS,
  reviewsFromItem,
  runningExperimentOf,
  type StoredTemplate,
  type StoredVersion,
  type TemplateEntry,
  templateFromItem,
  type VersionReviews,
  versionFromItem,
  versionReviewsOf,
} from "./template-item.js";

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

export class TemplateReads {
  protected readonly listings: ListingIndex;

  constructor(protected readonly db: Db) {
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

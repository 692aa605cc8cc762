/**
 * @module templates/template-store — the writes of templates, their versions and slugs: a template with its
 * slug claim and listing entry, versions numbered without gaps, promotion in one transaction, and
 * the folds of versions' reviews. The reads it extends are ./template-reads.ts, for what never
 * writes a template. Keys: ./keys.ts.
 */
import type { TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { slugKey, templateKey, templateSortKey } from "./keys.js";
import type { CompiledTemplate } from "./render.js";
import type { RunningExperiment, Template, TemplateVersion } from "./schemas.js";
import { entryOf, type StoredTemplate, TEMPLATE_FIELDS, templateItem, type VersionReviews } from "./template-item.js";
import { TemplateReads } from "./template-reads.js";
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

/** Index of the slug claim in a create's transaction, to tell a taken slug from other failures. */
export const SLUG_CLAIM_INDEX = 1;

export class TemplateStore extends TemplateReads {
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
}

/**
 * @module templates/template-service — template rules: unique slugs, strict conditions, versions numbered
 * without gaps, promotion that leaves one version active. Choosing and rendering a template for an
 * issue, and seeding the defaults, are ./prompt-renderer.ts.
 */

import type { CatalogLookups } from "../catalog/catalog-lookups.js";
import { projectExistsCheck } from "../catalog/label-store.js";
import { lostRace } from "../catalog/patch.js";
import { ConditionFailedError, type TransactItem } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, fieldError, NotFoundError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import { pageOffset } from "../http/pagination.js";
import type { ExperimentEndings } from "./experiment-endings.js";
import { newTemplateId, newVersionId, VERSION_ID } from "./keys.js";
import { includedPartials, lostInclude } from "./partial-includes.js";
import type { PartialStore, StoredPartial } from "./partial-store.js";
import { checkedContent } from "./render.js";
import type {
  CreateTemplateBody,
  CreateVersionBody,
  ListTemplatesQuery,
  PageQuery,
  PatchTemplateBody,
  Template,
  TemplateDetail,
  TemplateVersion,
} from "./schemas.js";
import { newVersionRecord, type StoredTemplate } from "./template-item.js";
import { SLUG_CLAIM_INDEX, type TemplateStore } from "./template-store.js";

export class TemplateService {
  private readonly store: TemplateStore;

  constructor(
    store: TemplateStore,
    /** The partials versions include (docs/api.md#partials): each use is recorded in the version's transaction. */
    private readonly partials: PartialStore,
    private readonly catalog: CatalogLookups,
    /** Seals the precompiled forms this service stores (the service key): only sealed ones are run. */
    private readonly sealSecret: string | undefined,
    /** Ends a running experiment when its template is changed by hand. */
    private readonly experiments: Pick<ExperimentEndings, "prepareEndFor">,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = store;
  }

  /** Creates a template; with `content`, its version 1 is made and active at once. */
  async createTemplate(input: CreateTemplateBody): Promise<StoredTemplate> {
    const checked = input.content !== undefined ? await checkedContent(input.content, this.sealSecret) : undefined;
    await this.checkProjects(input.projectId, input.conditions?.projectId);
    const includes = await includedPartials(this.partials, checked?.partials ?? []);
    const { id, createdAt } = newTemplateId(this.now().getTime());
    const first =
      input.content !== undefined
        ? newVersionRecord(id, 1, { ...input, content: input.content }, "active", createdAt)
        : undefined;
    const template: Template = {
      id,
      slug: input.slug,
      name: input.name,
      description: input.description ?? null,
      conditions: input.conditions ?? {},
      specificity: input.specificity ?? 10,
      projectId: input.projectId ?? null,
      activeVersionId: first?.id ?? null,
      createdAt,
      updatedAt: createdAt,
    };
    const own = this.store.prepareCreate(template, first, checked?.compiled, includes.map(nameOf));
    const writes = [
      ...own,
      ...(first ? this.partials.prepareUses(includes, holderOf(first)) : []),
      ...(template.projectId ? [projectExistsCheck(template.projectId, this.now())] : []),
    ];
    try {
      await this.store.transact(writes);
    } catch (error) {
      if (error instanceof ConditionFailedError) {
        throw (
          lostInclude(error, own.length, includes) ??
          this.refusal(error, template.slug, template.projectId ? writes.length - 1 : -1)
        );
      }
      throw error;
    }
    return {
      template,
      version: 1,
      versionCount: first ? 1 : 0,
      activeVersionNumber: first ? 1 : null,
      experiment: null,
    };
  }

  /** A live template by `tpl_…` id or by slug; 404 otherwise. */
  async getTemplate(ref: string): Promise<StoredTemplate> {
    const found = await this.store.resolve(ref);
    if (!found) throw new NotFoundError(`Template ${ref} not found`);
    return found;
  }

  async templateDetail(ref: string): Promise<{ detail: TemplateDetail; version: number }> {
    const stored = await this.getTemplate(ref);
    const active =
      stored.activeVersionNumber !== null
        ? await this.store.getVersion(stored.template.id, stored.activeVersionNumber)
        : undefined;
    return { detail: { ...stored.template, activeVersion: active?.version ?? null }, version: stored.version };
  }

  async listTemplates(query: ListTemplatesQuery) {
    return this.store.list(
      { ...(query.projectId ? { projectId: query.projectId } : {}), ...(query.type ? { type: query.type } : {}) },
      { offset: pageOffset(query), limit: query.limit },
    );
  }

  /** Partial update under `If-Match`; concurrent changes of other fields survive (read again, merge, write). */
  async updateTemplate(ref: string, changes: PatchTemplateBody, expected?: ExpectedVersions): Promise<StoredTemplate> {
    await this.checkProjects(changes.projectId, changes.conditions?.projectId);
    return retryRaces(
      async () => {
        const current = await this.getTemplate(ref);
        checkVersion(expected, current.version);
        const given = Object.entries(changes).filter(([, value]) => value !== undefined);
        const merged = { ...current.template, ...Object.fromEntries(given) } as Template;
        if (JSON.stringify(merged) === JSON.stringify(current.template)) return current;
        const updated: Template = { ...merged, updatedAt: this.now().toISOString() };
        const { stored, writes } = this.store.prepareUpdate(current, updated);
        const checks =
          updated.projectId && updated.projectId !== current.template.projectId
            ? [projectExistsCheck(updated.projectId, this.now())]
            : [];
        try {
          await this.store.transact([...writes, ...checks]);
        } catch (error) {
          if (error instanceof ConditionFailedError && !lostRace(error)) {
            throw this.refusal(error, updated.slug, checks.length > 0 ? writes.length : -1, writes.length - 2);
          }
          throw error;
        }
        return stored;
      },
      { isRace: lostRace },
    );
  }

  /**
   * Soft delete: the template stops being listed and chosen, its slug is free again, its versions
   * stay for its prompts; an experiment it runs is stopped.
   */
  async deleteTemplate(ref: string, expected?: ExpectedVersions): Promise<void> {
    const race = endingRace();
    await retryRaces(async () => {
      const current = await this.getTemplate(ref);
      checkVersion(expected, current.version);
      const ending = current.experiment
        ? await this.experiments.prepareEndFor(current, { status: "stopped", reason: "template deleted" })
        : [];
      await this.store.transact(race.writes(this.store.prepareDelete(current, this.now()), ending));
    }, race);
  }

  /** A new draft numbered after the last one: concurrent creations take consecutive numbers. */
  async createVersion(ref: string, input: CreateVersionBody): Promise<TemplateVersion> {
    const { compiled, partials: references } = await checkedContent(input.content, this.sealSecret);
    const createdAt = this.now().toISOString();
    const id = newVersionId(this.now().getTime());
    return retryRaces(
      async () => {
        const current = await this.getTemplate(ref);
        // Read on every attempt: a partial deleted meanwhile is the client's 400, not a race to retry.
        const includes = await includedPartials(this.partials, references);
        const version = newVersionRecord(current.template.id, current.versionCount + 1, input, "draft", createdAt, id);
        const own = this.store.prepareVersion(current, version, compiled, includes.map(nameOf));
        try {
          await this.store.transact([...own, ...this.partials.prepareUses(includes, holderOf(version))]);
        } catch (error) {
          const lost = error instanceof ConditionFailedError ? lostInclude(error, own.length, includes) : undefined;
          throw lost ?? error;
        }
        return version;
      },
      { isRace: lostRace },
    );
  }

  /** Versions newest first: the numbers of a page follow from the count (no gaps), so it is two reads. */
  async listVersions(ref: string, query: PageQuery): Promise<{ versions: TemplateVersion[]; total: number }> {
    const { template, versionCount } = await this.getTemplate(ref);
    const newest = versionCount - pageOffset(query);
    const oldest = Math.max(1, newest - query.limit + 1);
    const versions = await this.store.versionRange(template.id, oldest, newest, "desc");
    return { versions: versions.map(({ version }) => version), total: versionCount };
  }

  /**
   * Makes the version active and retires the one that was, in one transaction. Promoting the
   * active version changes nothing; a retired one may come back (a rollback). A running experiment
   * ends in the same transaction: `promoted` when its candidate is the version promoted, else
   * `stopped`.
   */
  async promote(ref: string, versionId: string): Promise<{ template: StoredTemplate; version: TemplateVersion }> {
    const race = endingRace();
    return retryRaces(async () => {
      const current = await this.getTemplate(ref);
      const located = VERSION_ID.test(versionId) ? await this.store.locateVersion(versionId) : undefined;
      if (!located || located.templateId !== current.template.id) {
        throw new NotFoundError(`Version ${versionId} of template ${ref} not found`);
      }
      const target = await this.store.getVersion(current.template.id, located.number);
      if (!target) throw new NotFoundError(`Version ${versionId} of template ${ref} not found`);
      if (current.activeVersionNumber === located.number) return { template: current, version: target.version };
      const ending = current.experiment
        ? await this.experiments.prepareEndFor(current, {
            status: current.experiment.candidateVersionNumber === located.number ? "promoted" : "stopped",
            reason: `version ${located.number} promoted by request`,
          })
        : [];
      const promotion = this.store.preparePromotion(
        current,
        target.version,
        this.now(),
        current.activeVersionNumber ?? undefined,
        null,
      );
      // A retired version's partials may have been deleted since: it includes them again, or is refused.
      const includes = await this.partials.getMany(target.includes);
      const gone = target.includes.filter((name) => !includes.has(name));
      if (gone.length > 0) throw promotionRefused(target.version.version, current.template.slug, gone);
      const held = [...includes.values()];
      const writes = [...promotion, ...this.partials.prepareUses(held, holderOf(target.version))];
      try {
        await this.store.transact(race.writes(writes, ending));
      } catch (error) {
        if (error instanceof ConditionFailedError && lostInclude(error, promotion.length, held)) {
          const lost = held.filter((_, i) => error.reasons[promotion.length + 2 * i] === "ConditionalCheckFailed");
          throw promotionRefused(target.version.version, current.template.slug, lost.map(nameOf));
        }
        throw error;
      }
      const promoted = await this.getTemplate(current.template.id);
      return { template: promoted, version: { ...target.version, status: "active" } };
    }, race);
  }

  /** A project a template names must exist (400 otherwise), as an issue's must. */
  private async checkProjects(...ids: (string | null | undefined)[]): Promise<void> {
    for (const [field, id] of [
      ["projectId", ids[0]],
      ["conditions.projectId", ids[1]],
    ] as const) {
      if (id && !(await this.catalog.projectExists(id))) {
        throw fieldError(field, `project ${id} does not exist`);
      }
    }
  }

  /** What a failed template write means: a taken slug (409), a project deleted meanwhile (409), else the error. */
  private refusal(error: ConditionFailedError, slug: string, projectIndex: number, slugIndex = SLUG_CLAIM_INDEX) {
    if (error.reasons[slugIndex] === "ConditionalCheckFailed") {
      return new ConflictError(`Template slug "${slug}" already exists`);
    }
    if (projectIndex >= 0 && error.reasons[projectIndex] === "ConditionalCheckFailed") {
      return new ConflictError("The template's project was just deleted; check it and retry");
    }
    return error;
  }
}

/**
 * Lost races of a template write that may end its running experiment: its own condition (the
 * template changed meanwhile) or the experiment's (decided meanwhile); either way it reads again.
 */
function endingRace() {
  let endingAt = -1;
  return {
    /** The transaction: the template's writes, then the experiment's ending (if any). */
    writes(own: TransactItem[], ending: TransactItem[]): TransactItem[] {
      endingAt = ending.length > 0 ? own.length : -1;
      return [...own, ...ending];
    },
    isRace: (error: ConditionFailedError) =>
      lostRace(error) || (endingAt >= 0 && error.reasons[endingAt] === "ConditionalCheckFailed"),
  };
}

function nameOf(partial: StoredPartial): string {
  return partial.partial.name;
}

/** How a version's use of a partial names it. */
function holderOf(version: TemplateVersion) {
  return { versionId: version.id, templateId: version.templateId, versionNumber: version.version };
}

/** The 409 for promoting a version whose partials were deleted since it was written (docs/api.md#partials). */
function promotionRefused(number: number, slug: string, gone: string[]): ConflictError {
  const names = gone.map((name) => `"${name}"`).join(", ");
  return new ConflictError(
    `Version ${number} of template ${slug} includes partial${gone.length > 1 ? "s" : ""} ${names}, which no longer exist${gone.length > 1 ? "" : "s"}; create ${gone.length > 1 ? "them" : "it"} again before promoting`,
  );
}

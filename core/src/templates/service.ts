/**
 * @module templates/service — template rules: unique slugs, strict conditions, versions numbered
 * without gaps, promotion that leaves one version active, selection and rendering for an issue,
 * and the default templates seeded once.
 */

import { lostRace } from "../catalog/patch.js";
import type { CatalogService } from "../catalog/service.js";
import { projectExistsCheck } from "../catalog/store.js";
import { ConditionFailedError } from "../db/client.js";
import { retryConflicts, retryRaces } from "../db/retry.js";
import { ConflictError, NotFoundError, ValidationError } from "../errors.js";
import { checkVersion } from "../http/conditional.js";
import { pageOffset } from "../http/pagination.js";
import type { IssueAggregate } from "../issues/store.js";
import { type DispatchContext, NO_DISPATCH, type PromptContextBuilder, selectionFacts } from "./context.js";
import { DEFAULT_TEMPLATE_SLUGS, newTemplateId, newVersionId, SLUG, TEMPLATE_ID, VERSION_ID } from "./keys.js";
import {
  type CompiledTemplate,
  handlebarsReady,
  type PromptContext,
  precompileTemplate,
  type RenderableVersion,
  renderStoredVersion,
} from "./render.js";
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
import { selectTemplate } from "./selection.js";
import { SLUG_CLAIM_INDEX, type StoredTemplate, type TemplateStore } from "./store.js";

/** What a recorded prompt names: the version it was rendered from, and the text. */
export interface PromptSource {
  templateId: string;
  versionId: string;
  versionNumber: number;
  text: string;
}

/** A prompt as rendered for an issue: the template and version chosen and the text. */
export interface RenderedPrompt {
  template: Template;
  version: TemplateVersion;
  text: string;
}

/**
 * Largest prompt text kept and handed out (UTF-8 bytes): a prompt is one item, and DynamoDB's
 * items stop at 400 KB. Longer text is cut at a character boundary, with a line saying so.
 */
export const MAX_PROMPT_BYTES = 300 * 1024;

/** The text within {@link MAX_PROMPT_BYTES}: whole, or cut with a closing note. */
export function boundedPromptText(text: string): string {
  if (Buffer.byteLength(text, "utf8") <= MAX_PROMPT_BYTES) return text;
  const note = `\n\n[This prompt was cut at ${MAX_PROMPT_BYTES / 1024} KB; read the issue and its signals through the API for the rest.]`;
  const budget = MAX_PROMPT_BYTES - Buffer.byteLength(note, "utf8");
  // Cutting the bytes may split a character; the decoder drops the partial one.
  const cut = new TextDecoder("utf-8").decode(Buffer.from(text, "utf8").subarray(0, budget)).replace(/\uFFFD$/, "");
  return `${cut}${note}`;
}

/**
 * Refuses content that would not render (400 naming line and column) and returns its precompiled
 * form, stored with the version so that rendering it needs only Handlebars' runtime; loads the compiler first.
 */
async function checkedContent(content: string, secret: string | undefined): Promise<CompiledTemplate | undefined> {
  await handlebarsReady();
  return precompileTemplate(content, secret);
}

export class TemplateService {
  private readonly store: TemplateStore;

  private seeding: Promise<void> | undefined;

  constructor(
    store: TemplateStore,
    private readonly catalog: CatalogService,
    private readonly contexts: PromptContextBuilder,
    /** Seals the precompiled forms this service stores (the service key): only sealed ones are run. */
    private readonly sealSecret: string | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = store;
  }

  private async renderedText(version: RenderableVersion, context: PromptContext): Promise<string> {
    return boundedPromptText(await renderStoredVersion(version, context, this.sealSecret));
  }

  /** Creates a template; with `content`, its version 1 is made and active at once. */
  async createTemplate(input: CreateTemplateBody): Promise<StoredTemplate> {
    const compiled = input.content !== undefined ? await checkedContent(input.content, this.sealSecret) : undefined;
    await this.checkProjects(input.projectId, input.conditions?.projectId);
    const { id, createdAt } = newTemplateId(this.now().getTime());
    const first =
      input.content !== undefined
        ? this.newVersion(id, 1, { ...input, content: input.content }, "active", createdAt)
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
    const writes = [
      ...this.store.prepareCreate(template, first, compiled),
      ...(template.projectId ? [projectExistsCheck(template.projectId, this.now())] : []),
    ];
    try {
      await this.store.transact(writes);
    } catch (error) {
      if (error instanceof ConditionFailedError) {
        throw this.refusal(error, template.slug, template.projectId ? writes.length - 1 : -1);
      }
      throw error;
    }
    return { template, version: 1, versionCount: first ? 1 : 0, activeVersionNumber: first ? 1 : null };
  }

  /** A live template by `tpl_…` id or by slug; 404 otherwise. */
  async getTemplate(ref: string): Promise<StoredTemplate> {
    const id = TEMPLATE_ID.test(ref) ? ref : SLUG.test(ref) ? await this.store.idOfSlug(ref) : undefined;
    const found = id ? await this.store.get(id) : undefined;
    if (!found || found.deleted) throw new NotFoundError(`Template ${ref} not found`);
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
  async updateTemplate(ref: string, changes: PatchTemplateBody, expected?: number): Promise<StoredTemplate> {
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

  /** Soft delete: the template stops being listed and chosen, its slug is free again, its versions stay for its prompts. */
  async deleteTemplate(ref: string, expected?: number): Promise<void> {
    await retryRaces(
      async () => {
        const current = await this.getTemplate(ref);
        checkVersion(expected, current.version);
        await this.store.transact(this.store.prepareDelete(current, this.now()));
      },
      { isRace: lostRace },
    );
  }

  /** A new draft numbered after the last one: concurrent creations take consecutive numbers. */
  async createVersion(ref: string, input: CreateVersionBody): Promise<TemplateVersion> {
    const compiled = await checkedContent(input.content, this.sealSecret);
    const createdAt = this.now().toISOString();
    const id = newVersionId(this.now().getTime());
    return retryRaces(
      async () => {
        const current = await this.getTemplate(ref);
        const version = this.newVersion(current.template.id, current.versionCount + 1, input, "draft", createdAt, id);
        await this.store.transact(this.store.prepareVersion(current, version, compiled));
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
   * active version changes nothing; a retired one may come back (a rollback).
   */
  async promote(ref: string, versionId: string): Promise<{ template: StoredTemplate; version: TemplateVersion }> {
    return retryRaces(
      async () => {
        const current = await this.getTemplate(ref);
        const located = VERSION_ID.test(versionId) ? await this.store.locateVersion(versionId) : undefined;
        if (!located || located.templateId !== current.template.id) {
          throw new NotFoundError(`Version ${versionId} of template ${ref} not found`);
        }
        const target = await this.store.getVersion(current.template.id, located.number);
        if (!target) throw new NotFoundError(`Version ${versionId} of template ${ref} not found`);
        if (current.activeVersionNumber === located.number) return { template: current, version: target.version };
        const writes = this.store.preparePromotion(
          current,
          target.version,
          this.now(),
          current.activeVersionNumber ?? undefined,
        );
        await this.store.transact(writes);
        const promoted = await this.getTemplate(current.template.id);
        return { template: promoted, version: { ...target.version, status: "active" } };
      },
      { isRace: lostRace },
    );
  }

  /**
   * The template an issue gets and the text rendered from its active version, with the template
   * and version as the API shows them (a preview), or null when no template matches.
   */
  async renderFor(issueRef: string): Promise<{ issueId: string; rendered: RenderedPrompt | null }> {
    const { context, stored, chosen } = await this.choose(issueRef, NO_DISPATCH, 0);
    if (!chosen || chosen.activeVersionNumber === null) return { issueId: stored.issue.id, rendered: null };
    return {
      issueId: stored.issue.id,
      rendered: await this.renderVersion(chosen.id, chosen.activeVersionNumber, context),
    };
  }

  /**
   * What a claim records: the chosen template's active version rendered for the issue, named by
   * ids only. A version's content never changes, so it is read once per process; the template
   * itself is not read (its listing entry says what selection needs). `extra` carries what only a
   * claim knows (the dispatch, the prompt id).
   */
  async renderChosen(
    issue: string | IssueAggregate,
    extra: DispatchContext,
    failedDispatches = 0,
  ): Promise<{ issueId: string; source: PromptSource | null }> {
    const { context, stored, chosen } = await this.choose(issue, extra, failedDispatches);
    if (!chosen?.activeVersionId || chosen.activeVersionNumber === null) {
      return { issueId: stored.issue.id, source: null };
    }
    const version = await this.store.versionSource(chosen.id, chosen.activeVersionNumber, chosen.activeVersionId);
    if (version === undefined) return { issueId: stored.issue.id, source: null };
    return {
      issueId: stored.issue.id,
      source: {
        templateId: chosen.id,
        versionId: chosen.activeVersionId,
        versionNumber: chosen.activeVersionNumber,
        text: await this.renderedText(version, context),
      },
    };
  }

  /** The issue's prompt context and the template selection picks for it (the context and the live templates read side by side). */
  private async choose(issue: string | IssueAggregate, extra: DispatchContext, failedDispatches: number) {
    const [{ context, stored }, entries] = await Promise.all([
      this.contexts.build(issue, extra),
      this.store.selectionEntries(),
    ]);
    return { context, stored, chosen: selectTemplate(entries, selectionFacts(stored, failedDispatches)) };
  }

  /** Any version (a draft included) rendered for an issue, whatever selection would choose: to try a version before promoting it. */
  async renderVersionFor(issueRef: string, versionId: string): Promise<{ issueId: string; rendered: RenderedPrompt }> {
    const located = VERSION_ID.test(versionId) ? await this.store.locateVersion(versionId) : undefined;
    if (!located) throw new NotFoundError(`Version ${versionId} not found`);
    const { context, stored } = await this.contexts.build(issueRef);
    const rendered = await this.renderVersion(located.templateId, located.number, context);
    if (!rendered) throw new NotFoundError(`Version ${versionId} not found`);
    return { issueId: stored.issue.id, rendered };
  }

  private async renderVersion(templateId: string, number: number, context: PromptContext) {
    const [template, version] = await Promise.all([
      this.store.get(templateId),
      this.store.getVersion(templateId, number),
    ]);
    if (!template || template.deleted || !version) return null;
    const text = await this.renderedText({ ...version.version, compiled: version.compiled }, context);
    return { template: template.template, version: version.version, text };
  }

  /**
   * Seeds the default templates once per app instance (again after a failure): claims and previews
   * wait for it, so a fresh table renders the defaults from its first request.
   */
  defaultsReady(): Promise<void> {
    this.seeding ??= this.seedDefaults().then(
      () => undefined,
      (error: unknown) => {
        this.seeding = undefined;
        throw error;
      },
    );
    return this.seeding;
  }

  /**
   * Creates each default template (API.md 3.4) that was never seeded: one read when all were.
   * A default the user changed or deleted is left as it is; a slug a user's template holds is skipped.
   */
  async seedDefaults(): Promise<string[]> {
    const seeded = await this.store.seeded(DEFAULT_TEMPLATE_SLUGS);
    const created: string[] = [];
    if (seeded.size === DEFAULT_TEMPLATE_SLUGS.length) return created;
    // Their content (and the compiler that checks it) is loaded only when one is to be written.
    const { DEFAULT_TEMPLATES } = await import("./defaults.js");
    for (const preset of DEFAULT_TEMPLATES.filter(({ slug }) => !seeded.has(slug))) {
      // Never marked seeded while a user's template holds the slug: skipped without compiling it.
      if (await this.store.idOfSlug(preset.slug)) continue;
      const compiled = await checkedContent(preset.content, this.sealSecret);
      const { id, createdAt } = newTemplateId(this.now().getTime());
      const first = this.newVersion(
        id,
        1,
        { changelog: preset.changelog, authorType: "human", authorName: "kaizen", content: preset.content },
        "active",
        createdAt,
      );
      const template: Template = {
        id,
        slug: preset.slug,
        name: preset.name,
        description: preset.description,
        conditions: preset.conditions,
        specificity: preset.specificity,
        projectId: null,
        activeVersionId: first.id,
        createdAt,
        updatedAt: createdAt,
      };
      try {
        const writes = [...this.store.prepareCreate(template, first, compiled), this.store.seedMark(preset.slug, id)];
        await retryConflicts(() => this.store.transact(writes));
        created.push(preset.slug);
      } catch (error) {
        // Seeded meanwhile by another instance, or the slug is a user's: either way there is nothing to do.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    return created;
  }

  private newVersion(
    templateId: string,
    number: number,
    input: Pick<CreateVersionBody, "changelog" | "authorType" | "authorName" | "content">,
    status: TemplateVersion["status"],
    createdAt: string,
    id = newVersionId(Date.parse(createdAt)),
  ): TemplateVersion {
    return {
      id,
      templateId,
      version: number,
      content: input.content,
      changelog: input.changelog ?? null,
      authorType: input.authorType ?? "human",
      authorName: input.authorName ?? null,
      status,
      usageCount: 0,
      reviewCount: 0,
      reviewScore: null,
      completionRate: null,
      createdAt,
    };
  }

  /** A project a template names must exist (400 otherwise), as an issue's must. */
  private async checkProjects(...ids: (string | null | undefined)[]): Promise<void> {
    for (const [field, id] of [
      ["projectId", ids[0]],
      ["conditions.projectId", ids[1]],
    ] as const) {
      if (id && !(await this.catalog.projectExists(id))) {
        throw new ValidationError(`${field}: project ${id} does not exist`, [
          { path: field, message: `project ${id} does not exist` },
        ]);
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

/**
 * @module templates/prompt-renderer — what a claim and a preview need of templates: the template an issue
 * gets and its version rendered for the issue (the default templates they start from are seeded by
 * ./default-templates.ts). Template writes (./template-service.ts) are not needed for that, so a
 * function that only renders does not carry them.
 */
import type { Project } from "../catalog/schemas.js";
import { NotFoundError } from "../errors.js";
import type { IssueAggregate } from "../issues/issue-item.js";
import { armOf } from "./arms.js";
import type { PromptArm } from "./experiment-counts.js";
import { VERSION_ID } from "./keys.js";
import type { PartialStore } from "./partial-store.js";
import {
  type DispatchContext,
  NO_DISPATCH,
  type PromptContextBuilder,
  selectionFacts,
} from "./prompt-context-builder.js";
import {
  type PromptContext,
  type RenderablePartial,
  type RenderableVersion,
  renderStoredVersion,
  renderWithPartials,
} from "./render.js";
import type { Template, TemplateVersion } from "./schemas.js";
import { selectTemplate } from "./selection.js";
import type { TemplateEntry } from "./template-item.js";
import type { TemplateReads } from "./template-reads.js";

/** What a recorded prompt names: the version it was rendered from (and in which experiment's arm), and the text. */
export interface PromptSource {
  templateId: string;
  versionId: string;
  versionNumber: number;
  experiment: PromptArm | null;
  text: string;
}

/**
 * The version an issue gets of a chosen template: its active one, or, while an experiment runs,
 * the candidate for the issues of the candidate's arm. Null when the template has no active version.
 */
function versionFor(
  chosen: TemplateEntry,
  issueId: string,
): { id: string; number: number; experiment: PromptArm | null } | null {
  if (!chosen.activeVersionId || chosen.activeVersionNumber === null) return null;
  const control = { id: chosen.activeVersionId, number: chosen.activeVersionNumber };
  const { experiment } = chosen;
  if (!experiment) return { ...control, experiment: null };
  const arm = armOf(experiment, issueId);
  return arm === "candidate"
    ? {
        id: experiment.candidateVersionId,
        number: experiment.candidateVersionNumber,
        experiment: { id: experiment.id, arm },
      }
    : { ...control, experiment: { id: experiment.id, arm } };
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

/** Levels of partials that include partials a render reads through (writes refuse cycles; this bounds the reads regardless). */
const MAX_PARTIAL_DEPTH = 10;

/** Chooses and renders templates for issues. */
export class PromptRenderer {
  constructor(
    private readonly store: TemplateReads,
    /** The partials versions include, read as they are at each render (docs/api.md#partials). */
    private readonly partials: PartialStore,
    private readonly contexts: PromptContextBuilder,
    /** Seals the precompiled forms this service stores (the service key): only sealed ones are run. */
    private readonly sealSecret: string | undefined,
    readonly _now: () => Date = () => new Date(),
  ) {}

  private async renderedText(version: RenderableVersion & { includes: string[] }, context: PromptContext) {
    if (version.includes.length === 0) {
      return boundedPromptText(await renderStoredVersion(version, context, this.sealSecret));
    }
    const { named, found } = await this.partialsNow(version.includes);
    return boundedPromptText(await renderWithPartials(version, named, found, context, this.sealSecret));
  }

  /**
   * The partials `names` and those they include, as stored at this moment: one read per level of
   * inclusion (one for partials that include none), never the partials no render needs.
   */
  private async partialsNow(names: readonly string[]): Promise<{ named: string[]; found: RenderablePartial[] }> {
    const named = new Set(names);
    const found: RenderablePartial[] = [];
    let frontier = [...names];
    for (let depth = 0; frontier.length > 0 && depth < MAX_PARTIAL_DEPTH; depth++) {
      const read = await this.partials.getMany(frontier);
      const next: string[] = [];
      for (const stored of frontier.flatMap((name) => read.get(name) ?? [])) {
        const { name, content, createdAt } = stored.partial;
        found.push({ name, revision: `${createdAt}#${stored.version}`, content, compiled: stored.compiled });
        for (const included of stored.includes.filter((name) => !named.has(name))) {
          named.add(included);
          next.push(included);
        }
      }
      frontier = next;
    }
    return { named: [...named], found };
  }

  /**
   * The template an issue gets and the text rendered from the version a claim would render (its
   * active one, or its experiment's candidate in the candidate's arm), with the template and
   * version as the API shows them (a preview), or null when no template matches.
   */
  async renderFor(
    issueRef: string,
  ): Promise<{ issueId: string; rendered: RenderedPrompt | null; experiment: PromptArm | null }> {
    const { context, stored, chosen } = await this.choose(issueRef, NO_DISPATCH, 0);
    const picked = chosen ? versionFor(chosen, stored.issue.id) : null;
    if (!chosen || !picked) return { issueId: stored.issue.id, rendered: null, experiment: null };
    return {
      issueId: stored.issue.id,
      rendered: await this.renderVersion(chosen.id, picked.number, context),
      experiment: picked.experiment,
    };
  }

  /**
   * What a claim records: the chosen template's version for the issue (its active one, or while an
   * experiment runs the one of the issue's arm) rendered for it, named by ids only. A version's
   * content never changes, so it is read once per process; the template itself is not read (its
   * listing entry says what selection needs, its running experiment too). `extra` carries what
   * only a claim knows (the dispatch, the prompt id).
   */
  async renderChosen(
    issue: string | IssueAggregate,
    extra: DispatchContext,
    failedDispatches = 0,
  ): Promise<{ issueId: string; source: PromptSource | null; project: Project | null }> {
    const { context, stored, chosen, project } = await this.choose(issue, extra, failedDispatches);
    const picked = chosen ? versionFor(chosen, stored.issue.id) : null;
    if (!chosen || !picked) return { issueId: stored.issue.id, source: null, project };
    const version = await this.store.versionSource(chosen.id, picked.number, picked.id);
    if (version === undefined) return { issueId: stored.issue.id, source: null, project };
    return {
      issueId: stored.issue.id,
      project,
      source: {
        templateId: chosen.id,
        versionId: picked.id,
        versionNumber: picked.number,
        experiment: picked.experiment,
        text: await this.renderedText(version, context),
      },
    };
  }

  /** The issue's prompt context and the template selection picks for it (the context and the live templates read side by side). */
  private async choose(issue: string | IssueAggregate, extra: DispatchContext, failedDispatches: number) {
    const [{ context, stored, project }, entries] = await Promise.all([
      this.contexts.build(issue, extra),
      this.store.selectionEntries(),
    ]);
    return { context, stored, project, chosen: selectTemplate(entries, selectionFacts(stored, failedDispatches)) };
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
    const text = await this.renderedText(
      { ...version.version, compiled: version.compiled, includes: version.includes },
      context,
    );
    return { template: template.template, version: version.version, text };
  }
}

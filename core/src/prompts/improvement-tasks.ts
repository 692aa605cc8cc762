/**
 * @module prompts/improvement-tasks — the task that asks for a better version of a prompt template
 * (docs/api.md#prompts-and-reviews): "Improve prompt template: <slug>", a `task` in `todo` labelled
 * `prompt-improvement`, opened once per version, when its rated reviews say it reads badly or when
 * people's reviews of its agents' pull requests keep asking for changes. This module writes the
 * task; whoever decides a version needs one records it on the version in the same transaction.
 */
import type { CatalogLookups } from "../catalog/catalog-lookups.js";
import { type LabelStore, labelExistsCheck } from "../catalog/label-store.js";
import type { Clock } from "../clock.js";
import type { TransactItem } from "../db/db.js";
import type { Taken } from "../db/sequence.js";
import { ConflictError } from "../errors.js";
import { newIssue } from "../issues/issue-item.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { TemplateStore } from "../templates/template-store.js";
import type { Prompt } from "./schemas.js";

/** The label every improvement task carries (created on first need). */
export const IMPROVEMENT_LABEL = { name: "prompt-improvement", color: "#f59e0b" };

/**
 * What opens a version's improvement task: the issue (its number and create writes), and the
 * improvement label, found as stored or created when the table has none yet.
 */
export interface ImprovementDeps {
  issues: IssueStore;
  labels: Pick<CatalogLookups, "resolveLabels">;
  /** Makes the label when the table has none yet (the one way a label is made). */
  labelStore: Pick<LabelStore, "createLabel">;
}

/**
 * What an opening keeps while its transaction is retried: the issue number (taken once), the
 * template's slug and the label's name as stored. Forget `label` when the transaction found the
 * label gone: the next attempt makes it again.
 */
export interface ImprovementDraft {
  number?: Taken;
  slug?: string;
  label?: string | undefined;
}

/** The version a prompt was rendered from. */
export type VersionRef = Pick<Prompt, "templateId" | "versionId" | "versionNumber">;

export class ImprovementTasks {
  constructor(
    private readonly templates: Pick<TemplateStore, "get">,
    private readonly deps: ImprovementDeps,
    private readonly now: Clock,
  ) {}

  /**
   * The writes that open the improvement task of `version`, saying `why` it needs work and quoting
   * `feedback` when there is some. What `draft` holds is used again, what it lacks is read and kept in it.
   */
  async prepare(
    version: VersionRef,
    why: string,
    feedback: string | null,
    draft: ImprovementDraft,
  ): Promise<{ issueId: string; writes: TransactItem[] }> {
    draft.slug ??= (await this.templates.get(version.templateId))?.template.slug ?? version.templateId;
    draft.label ??= await this.label();
    draft.number ??= await this.deps.issues.takeNumber(this.now());
    const { slug, label, number } = draft;
    const fields = newIssue({
      title: `Improve prompt template: ${slug}`,
      type: "task",
      status: "todo",
      priority: 3,
      labels: [label],
      description: [
        `Version ${version.versionNumber} (${version.versionId}) of template \`${slug}\` (${version.templateId}) needs work:`,
        why,
        "",
        `Read its reviews at \`GET /api/templates/${version.templateId}/reviews\`, write a better version`,
        `with \`POST /api/templates/${version.templateId}/versions\`, and promote it when it reads well.`,
        ...(feedback ? ["", "Latest feedback:", "", `> ${feedback.replaceAll("\n", "\n> ")}`] : []),
      ].join("\n"),
    });
    const { stored, writes } = this.deps.issues.prepareCreate(fields, number);
    return { issueId: stored.issue.id, writes: [...writes, labelExistsCheck(label, this.now())] };
  }

  /** The improvement label's name as stored, creating the label when it does not exist yet. */
  private async label(): Promise<string> {
    const { found } = await this.deps.labels.resolveLabels([IMPROVEMENT_LABEL.name]);
    if (found[0]) return found[0];
    try {
      return (await this.deps.labelStore.createLabel(IMPROVEMENT_LABEL, this.now())).record.name;
    } catch (error) {
      if (error instanceof ConflictError) return IMPROVEMENT_LABEL.name;
      throw error;
    }
  }
}

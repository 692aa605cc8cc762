/**
 * @module prompts/claim-prompts — the prompt an issue gets at a claim (docs/api.md#prompts-and-reviews):
 * rendered from the template chosen for it, the text the agent receives (with the dispatch token in
 * it), and the writes that record it without the token. Only what claims carries it (the dispatch
 * function, and hosted runners' hand-offs); reading prompts back is ./prompt-service.ts.
 */
import type { Project } from "../catalog/schemas.js";
import type { Clock } from "../clock.js";
import type { TransactItem } from "../db/db.js";
import type { IssueAggregate } from "../issues/issue-item.js";
import type { DefaultTemplates } from "../templates/default-templates.js";
import type { DispatchContext } from "../templates/prompt-context-builder.js";
import type { PromptRenderer } from "../templates/prompt-renderer.js";
import { newPromptId } from "./keys.js";
import type { PromptStore } from "./prompt-store.js";
import type { Prompt } from "./schemas.js";

/** What stands for the dispatch token in a recorded prompt. */
export const REDACTED_TOKEN = "[dispatch token]";

export class ClaimPrompts {
  constructor(
    private readonly store: Pick<PromptStore, "prepareCreate">,
    private readonly renderer: Pick<PromptRenderer, "renderChosen">,
    /** The default templates a claim's prompt may be rendered from, seeded once per table. */
    private readonly defaults: Pick<DefaultTemplates, "ready">,
    private readonly now: Clock = () => new Date(),
  ) {}

  /**
   * Resolves once the default templates are there to render from: every claim waits for it before
   * it takes its place in line (an API claim, MCP's, a hosted runner's hand-off), so a fresh table's
   * first claim gets a prompt from the defaults (503 while another instance is still seeding them).
   */
  ready(): Promise<void> {
    return this.defaults.ready();
  }

  /**
   * Renders the prompt an issue gets now and the writes that record it, for the caller's own
   * transaction (a claim); `prompt` null and no writes when no template matches the issue. The
   * prompt returned is the text the agent receives; the one recorded has the dispatch token replaced
   * by {@link REDACTED_TOKEN}. `project` is the issue's project as its prompt context read it.
   */
  async preparePrompt(
    issueRef: string | IssueAggregate,
    dispatchId: string | null,
    extra: Omit<DispatchContext, "prompt">,
    failedDispatches = 0,
  ): Promise<{ prompt: Prompt | null; writes: TransactItem[]; project: Project | null }> {
    const { id, createdAt } = newPromptId(this.now().getTime());
    const { issueId, source, project } = await this.renderer.renderChosen(
      issueRef,
      { ...extra, prompt: { id } },
      failedDispatches,
    );
    if (!source) return { prompt: null, writes: [], project };
    const prompt: Prompt = { id, issueId, dispatchId, ...source, createdAt, reviewCount: 0 };
    // The dispatch token is stored only as a hash: the kept text names it without giving it away.
    const token = extra.dispatch?.token;
    const kept = token ? { ...prompt, text: prompt.text.replaceAll(token, REDACTED_TOKEN) } : prompt;
    return { prompt, writes: this.store.prepareCreate(kept), project };
  }
}

/**
 * @module dispatch/reported-prompts — the prompt behind a pull request (docs/api.md#prompts-and-reviews): that of the
 * dispatch that reported it, so that people's reviews of the pull request count as reviews of the prompt.
 */
import type { StoredIssue } from "../issues/issue-item.js";
import type { PullRequestIndex } from "../issues/pull-request-index.js";
import type { PromptStore } from "../prompts/prompt-store.js";
import type { Prompt } from "../prompts/schemas.js";
import type { DispatchStore } from "./dispatch-store.js";

export class ReportedPrompts {
  constructor(
    private readonly pullRequests: Pick<PullRequestIndex, "dispatchOf">,
    private readonly dispatches: Pick<DispatchStore, "get">,
    private readonly prompts: Pick<PromptStore, "get">,
  ) {}

  /**
   * The prompt of the dispatch of `issue` that reported pull request `number` of `repository`: the
   * dispatch the pull request index names, else the issue's latest when that one reported it; none
   * for a pull request no agent's dispatch of the issue reported, or a dispatch without a prompt.
   */
  async of(issue: StoredIssue, repository: string | null, number: number): Promise<Prompt | undefined> {
    const pointed = repository ? await this.pullRequests.dispatchOf({ repository, number }) : null;
    const dispatchId = pointed ?? issue.lastDispatchId;
    const dispatch = dispatchId ? await this.dispatches.get(dispatchId) : undefined;
    const reported = dispatch?.dispatch.outcome?.pullRequests.some(
      (pr) =>
        pr.number === number &&
        (!repository || !pr.repository || pr.repository.toLowerCase() === repository.toLowerCase()),
    );
    if (!dispatch || dispatch.dispatch.issueId !== issue.issue.id || !reported || !dispatch.dispatch.promptId) {
      return undefined;
    }
    return this.prompts.get(dispatch.dispatch.promptId);
  }
}

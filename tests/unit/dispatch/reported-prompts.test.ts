/**
 * The prompt behind a reviewed pull request (core/src/dispatch/reported-prompts.ts, docs/api.md#prompts-and-reviews):
 * that of the dispatch of the issue that reported it, found by the pull request index or, without
 * an entry, as the issue's latest dispatch; none when no dispatch of the issue reported that pull request.
 */
import { describe, expect, it } from "vitest";
import type { StoredDispatch } from "../../../core/src/dispatch/dispatch-item.js";
import { ReportedPrompts } from "../../../core/src/dispatch/reported-prompts.js";
import type { StoredIssue } from "../../../core/src/issues/issue-item.js";
import type { Prompt } from "../../../core/src/prompts/schemas.js";

const ISSUE = "iss_01HAAAAAAAAAAAAAAAAAAAAAAA";

const issue = (lastDispatchId: string | null) => ({ issue: { id: ISSUE }, lastDispatchId }) as unknown as StoredIssue;

/** A dispatch of `issueId` with prompt `promptId` that reported `pullRequests`. */
const dispatch = (
  id: string,
  promptId: string | null,
  pullRequests: { number: number; repository?: string | null }[],
  issueId = ISSUE,
) => ({ dispatch: { id, issueId, promptId, outcome: { pullRequests } } }) as unknown as StoredDispatch;

/** Prompts found over an index of `pointers` (`owner/repo#number` to a dispatch id) and `dispatches`. */
function reportedOver(pointers: Record<string, string>, dispatches: StoredDispatch[]) {
  const reads: string[] = [];
  const prompts = new ReportedPrompts(
    { dispatchOf: async ({ repository, number }) => pointers[`${repository}#${number}`] ?? null },
    {
      get: async (id) => {
        reads.push(id);
        return dispatches.find((stored) => stored.dispatch.id === id);
      },
    },
    { get: async (id) => ({ id }) as Prompt },
  );
  return { prompts, reads };
}

describe("the prompt behind a pull request", () => {
  it("is the prompt of the dispatch the pull request index names", async () => {
    const { prompts, reads } = reportedOver({ "acme/app#7": "dsp_a" }, [
      dispatch("dsp_a", "prm_a", [{ number: 7, repository: "acme/app" }]),
      dispatch("dsp_b", "prm_b", [{ number: 7, repository: "acme/app" }]),
    ]);
    expect(await prompts.of(issue("dsp_b"), "acme/app", 7)).toEqual({ id: "prm_a" });
    expect(reads).toEqual(["dsp_a"]);
  });

  it("is the issue's latest dispatch's without an index entry, or without a repository, when that one reported it", async () => {
    const { prompts } = reportedOver({}, [dispatch("dsp_b", "prm_b", [{ number: 7, repository: "Acme/App" }])]);
    // Repositories compare without case, as the code host names them either way.
    expect(await prompts.of(issue("dsp_b"), "acme/app", 7)).toEqual({ id: "prm_b" });
    expect(await prompts.of(issue("dsp_b"), null, 7)).toEqual({ id: "prm_b" });
    const unnamed = reportedOver({}, [dispatch("dsp_c", "prm_c", [{ number: 7, repository: null }])]);
    expect(await unnamed.prompts.of(issue("dsp_c"), "acme/app", 7)).toEqual({ id: "prm_c" });
  });

  it("is none when the dispatch did not report that pull request, belongs to another issue or has no prompt", async () => {
    const { prompts } = reportedOver({ "acme/app#9": "dsp_other" }, [
      dispatch("dsp_b", "prm_b", [{ number: 7, repository: "acme/app" }]),
      dispatch("dsp_other", "prm_o", [{ number: 9, repository: "acme/app" }], "iss_01HBBBBBBBBBBBBBBBBBBBBBBB"),
      dispatch("dsp_bare", null, [{ number: 8, repository: "acme/app" }]),
    ]);
    expect(await prompts.of(issue("dsp_b"), "acme/app", 8)).toBeUndefined();
    expect(await prompts.of(issue("dsp_b"), "other/app", 7)).toBeUndefined();
    expect(await prompts.of(issue("dsp_b"), "acme/app", 9)).toBeUndefined();
    expect(await prompts.of(issue("dsp_bare"), "acme/app", 8)).toBeUndefined();
    expect(await prompts.of(issue(null), "acme/app", 7)).toBeUndefined();
  });
});

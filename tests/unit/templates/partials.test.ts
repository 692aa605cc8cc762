import { beforeAll, describe, expect, it } from "vitest";
import { newIssue } from "../../../core/src/issues/issue-item.js";
import { checkedTemplate } from "../../../core/src/templates/compile.js";
import {
  handlebarsReady,
  type PromptContext,
  precompileTemplate,
  promptHelpers,
  renderWithPartials,
} from "../../../core/src/templates/render.js";

// Handlebars loads on first use (not at a cold start); these tests call the renderer directly.
beforeAll(() => handlebarsReady());

const SECRET = `kaizen_${"cd".repeat(32)}`;

const context: PromptContext = {
  issue: {
    ...newIssue({ title: "Checkout times out", type: "task", status: "todo", priority: 2 }),
    id: "iss_01JD0000000000000000000042",
    number: 42,
    identifier: "KZN-42",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  },
  parent: null,
  children: [],
  siblings: [],
  project: null,
  goal: null,
  labels: [],
  blocking: [],
  blockedBy: [],
  previousDispatches: [],
  feedback: [],
  reviewRounds: 0,
  signals: [],
  dispatch: null,
  prompt: null,
  api: { baseUrl: "https://kaizen.example.com" },
};

describe("the partials content names", () => {
  it("are read from the parsed template, each once, where it first appears", () => {
    const content = [
      "{{!-- {{> in-a-comment}} --}}",
      "{{{{raw}}}}{{> in-a-raw-block}}{{{{/raw}}}}",
      "  {{> first}} {{> 'quoted-name'}}",
      "{{#if issue}}{{#> second}}fallback {{> third}}{{/second}}{{/if}}",
      "{{> first}}",
    ].join("\n");
    expect(checkedTemplate(content, promptHelpers()).partials).toEqual([
      { name: "first", line: 3, column: 3 },
      { name: "quoted-name", line: 3, column: 15 },
      { name: "second", line: 4, column: 14 },
      { name: "third", line: 4, column: 36 },
    ]);
  });

  it("are none for content without a partial", () => {
    expect(checkedTemplate("Fix {{issue.title}} > now", promptHelpers()).partials).toEqual([]);
  });
});

describe("renderWithPartials", () => {
  const version = (id: string, content: string) => ({ id, content, compiled: precompileTemplate(content, SECRET) });
  const partial = (name: string, revision: string, content: string) => ({
    name,
    revision,
    content,
    compiled: precompileTemplate(content, SECRET),
  });

  it("renders each partial with the content given to this render, partials inside partials included", async () => {
    const stored = version("ver_partials_a", "Fix {{issue.title}}: {{> outer}}");
    const text = await renderWithPartials(
      stored,
      ["outer", "inner"],
      [partial("outer", "r1", "[{{> inner}}]"), partial("inner", "r1", "{{issueRef issue}}")],
      context,
      SECRET,
    );
    expect(text).toBe("Fix Checkout times out: [KZN-42]");
    const changed = await renderWithPartials(
      stored,
      ["outer", "inner"],
      [partial("outer", "r1", "[{{> inner}}]"), partial("inner", "r2", "changed")],
      context,
      SECRET,
    );
    expect(changed).toBe("Fix Checkout times out: [changed]");
  });

  it("keeps renders that run at once apart: each sees only its own partials", async () => {
    const stored = version("ver_partials_b", "{{> shared-name}}");
    const texts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        renderWithPartials(stored, ["shared-name"], [partial("shared-name", `r${i}`, `text ${i}`)], context, SECRET),
      ),
    );
    expect(texts).toEqual(Array.from({ length: 20 }, (_, i) => `text ${i}`));
  });

  it("renders a partial named but not given (deleted since) as empty, and compiles what has no sealed form", async () => {
    const unsealed = { id: "ver_partials_c", content: "a{{> gone}}b{{> plain}}c" };
    const text = await renderWithPartials(
      unsealed,
      ["gone", "plain"],
      [{ name: "plain", revision: "r1", content: "{{issue.number}}" }],
      context,
      SECRET,
    );
    expect(text).toBe("ab42c");
  });
});

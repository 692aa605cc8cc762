import Handlebars from "handlebars";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ValidationError } from "../../../core/src/errors.js";
import { newIssue } from "../../../core/src/issues/issue-item.js";
import type { Issue } from "../../../core/src/issues/schemas.js";
import {
  checkTemplateSyntax,
  compiledCacheSize,
  handlebarsReady,
  type PromptContext,
  precompileTemplate,
  renderStoredVersion,
  renderTemplate,
  TemplateSyntaxError,
} from "../../../core/src/templates/render.js";

// Handlebars loads on first use (not at a cold start); these tests call the renderer directly.
beforeAll(() => handlebarsReady());

const issue: Issue = {
  ...newIssue({
    title: "Checkout <b>times out</b> & \"fails\" 'sometimes'",
    type: "task",
    status: "todo",
    priority: 2,
  }),
  id: "iss_01JD0000000000000000000042",
  number: 42,
  identifier: "KZN-42",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

const context: PromptContext = {
  issue,
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
  api: { baseUrl: "http://localhost:4242" },
};

let versions = 0;
/** Renders through the cache under a version id of its own. */
const render = (content: string, ctx: PromptContext = context) =>
  renderTemplate(`ver_test_${++versions}`, content, ctx);

function syntaxError(content: string): TemplateSyntaxError {
  try {
    checkTemplateSyntax(content);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected a syntax error in ${JSON.stringify(content)}`);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("renderTemplate", () => {
  it("escapes nothing: prompts are Markdown, not HTML", () => {
    expect(render("{{issue.title}}")).toBe(issue.title);
    expect(render("{{{issue.title}}}")).toBe(issue.title);
    expect(render("{{issue.title}}")).toContain(`<b>times out</b> & "fails" 'sometimes'`);
  });

  it("renders missing values empty, at any depth", () => {
    expect(render("[{{nothing}}|{{issue.nothing}}|{{project.name}}|{{goal.metric.unit}}|{{dispatch.token}}]")).toBe(
      "[||||]",
    );
    expect(render("{{#if project}}in {{project.name}}{{else}}no project{{/if}}")).toBe("no project");
    expect(render("{{#each children}}{{title}}{{/each}}")).toBe("");
  });

  it("renders values of the context", () => {
    const withProject: PromptContext = {
      ...context,
      project: { id: "prj_1", name: "Checkout", description: null, status: "active", health: "on_track" },
      labels: [
        { name: "bug", color: "#ff0000" },
        { name: "ui", color: "#00ff00" },
      ],
    };
    expect(
      render(
        "{{issue.identifier}} in {{project.name}}: {{#each labels}}{{name}}{{#unless @last}}, {{/unless}}{{/each}}",
        withProject,
      ),
    ).toBe("KZN-42 in Checkout: bug, ui");
  });

  it.each([
    ["{{json issue.labels}}", "[]"],
    ['{{json "a"}}', '"a"'],
    ["{{json 3}}", "3"],
    ["{{json nothing}}", ""],
    ["{{json null}}", "null"],
    ["{{json api}}", '{\n  "baseUrl": "http://localhost:4242"\n}'],
    ["{{priorityLabel 0}}", "none"],
    ["{{priorityLabel 1}}", "urgent"],
    ["{{priorityLabel 2}}", "high"],
    ["{{priorityLabel 3}}", "medium"],
    ["{{priorityLabel 4}}", "low"],
    ["{{priorityLabel issue.priority}}", "high"],
    ["{{priorityLabel 5}}", ""],
    ["{{priorityLabel -1}}", ""],
    ["{{priorityLabel 1.5}}", ""],
    ['{{priorityLabel "1"}}', ""],
    ["{{priorityLabel nothing}}", ""],
    ["{{issueRef 7}}", "KZN-7"],
    ["{{issueRef issue}}", "KZN-42"],
    ["{{issueRef issue.number}}", "KZN-42"],
    ['{{issueRef "7"}}', ""],
    ["{{issueRef 0}}", ""],
    ["{{issueRef 2.5}}", ""],
    ["{{issueRef api}}", ""],
    ["{{issueRef nothing}}", ""],
  ])("helper: %s → %j", (content, expected) => {
    expect(render(content)).toBe(expected);
  });

  it("reads an issue's number only from the issue itself", () => {
    const child = { ...issue, number: 43 };
    expect(render("{{#each children}}{{issueRef this}}{{/each}}", { ...context, children: [child] })).toBe("KZN-43");
  });

  it("renders nothing for inherited properties and does not log the attempts", () => {
    const logged = [vi.spyOn(console, "error"), vi.spyOn(console, "warn"), vi.spyOn(console, "log")];
    const probes = [
      "{{constructor.name}}",
      "{{__proto__}}",
      "{{issue.constructor}}",
      "{{issue.__proto__.constructor.name}}",
      "{{toString}}",
      "{{issue.title.constructor}}",
      "{{issue.labels.constructor.name}}",
      '{{lookup this "constructor"}}',
      '{{lookup (lookup issue "constructor") "constructor"}}',
      "{{#with issue}}{{constructor.constructor}}{{hasOwnProperty}}{{/with}}",
      "{{#each issue.labels}}{{/each}}{{issue.labels.length}}",
    ];
    expect(probes.map((probe) => render(probe))).toEqual(["", "", "", "", "", "", "", "", "", "", "0"]);
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
  });

  it("compiles a version once and reuses it: versions never change", () => {
    const before = compiledCacheSize();
    expect(renderTemplate("ver_cache_once", "first {{issue.number}}", context)).toBe("first 42");
    expect(compiledCacheSize()).toBe(before + 1);
    expect(renderTemplate("ver_cache_once", "first {{issue.number}}", context)).toBe("first 42");
    expect(compiledCacheSize()).toBe(before + 1);
    // The cached compilation is used even if a caller passes other content for the same version.
    expect(renderTemplate("ver_cache_once", "second", context)).toBe("first 42");
  });

  it("keeps at most 500 versions, letting the least recently used go", () => {
    renderTemplate("ver_lru_hot", "hot", context);
    renderTemplate("ver_lru_cold", "cold", context);
    for (let i = 0; i < 600; i++) {
      renderTemplate(`ver_lru_${i}`, "filler", context);
      if (i % 100 === 0) renderTemplate("ver_lru_hot", "hot", context);
    }
    expect(compiledCacheSize()).toBe(500);
    expect(renderTemplate("ver_lru_hot", "recompiled", context)).toBe("hot");
    expect(renderTemplate("ver_lru_cold", "recompiled", context)).toBe("recompiled");
  });

  it("refuses content with a syntax error before caching it", () => {
    const before = compiledCacheSize();
    expect(() => renderTemplate("ver_broken", "{{#if x}}", context)).toThrow(TemplateSyntaxError);
    expect(compiledCacheSize()).toBe(before);
  });
});

describe("renderStoredVersion", () => {
  const SECRET = `kaizen_${"cd".repeat(32)}`;
  const stored = (content: string, compiled = precompileTemplate(content, SECRET)) => ({
    id: `ver_stored_${++versions}`,
    content,
    compiled,
  });

  it("renders a precompiled version exactly as compiling its content does", async () => {
    const withFamily: PromptContext = {
      ...context,
      parent: {
        id: "iss_p",
        number: 7,
        identifier: "KZN-7",
        title: "Parent",
        type: "plan",
        status: "todo",
        priority: 1,
      },
      labels: [{ name: "bug", color: "#f00" }],
    } as PromptContext;
    const corpus = [
      "{{issue.title}} {{{issue.title}}} {{issue.missing.deeper}}",
      "# {{issueRef issue}} ({{priorityLabel issue.priority}}) {{json issue.labels}}",
      "{{#if parent}}{{issueRef parent}} {{parent.title}}{{else}}no parent{{/if}}",
      "{{#each labels as |label i|}}{{i}}:{{label.name}}{{#if @last}}.{{/if}}{{else}}none{{/each}}",
      "{{#with issue}}{{title}} {{@root.api.baseUrl}}{{/with}} {{lookup issue 'title'}}",
      "{{issue.constructor}}{{issue.__proto__}}{{toString}}{{lookup this 'constructor'}}",
      "{{~issue.number~}}  \\{{literal}} {{!-- comment --}}",
    ];
    for (const content of corpus) {
      for (const ctx of [context, withFamily]) {
        const expected = renderTemplate(`ver_compiled_ref_${++versions}`, content, ctx);
        expect(await renderStoredVersion(stored(content), ctx, SECRET), content).toBe(expected);
      }
    }
  });

  it("runs the precompiled form, not the content, and keeps it like any version", async () => {
    const version = stored("the content", precompileTemplate("compiled {{issue.number}}", SECRET));
    expect(await renderStoredVersion(version, context, SECRET)).toBe("compiled 42");
    expect(renderTemplate(version.id, "other", context)).toBe("compiled 42");
  });

  it("compiles the content of a version stored without a precompiled form, or with one it cannot run", async () => {
    expect(await renderStoredVersion(stored("plain {{issue.number}}", undefined), context, SECRET)).toBe("plain 42");
    const unreadable = stored("fallback {{issue.number}}", new Uint8Array([1, 2, 3]));
    expect(await renderStoredVersion(unreadable, context, SECRET)).toBe("fallback 42");
  });

  it("never runs a precompiled form it did not seal: another key's, a forged one, or any without a key", async () => {
    const forged = precompileTemplate("forged {{issue.number}}", `kaizen_${"ef".repeat(32)}`);
    expect(await renderStoredVersion(stored("content {{issue.number}}", forged), context, SECRET)).toBe("content 42");
    const sealed = precompileTemplate("sealed {{issue.number}}", SECRET) ?? new Uint8Array();
    const tampered = Uint8Array.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(await renderStoredVersion(stored("content {{issue.number}}", tampered), context, SECRET)).toBe("content 42");
    expect(await renderStoredVersion(stored("content {{issue.number}}", sealed), context, undefined)).toBe(
      "content 42",
    );
    expect(await renderStoredVersion(stored("content {{issue.number}}", sealed), context, SECRET)).toBe("sealed 42");
    expect(precompileTemplate("no key {{issue.number}}", undefined)).toBeUndefined();
  });

  it("precompiles only content that passes the checks", () => {
    expect(precompileTemplate("fine {{issue.title}}", SECRET)).toBeInstanceOf(Uint8Array);
    expect(() => precompileTemplate("{{#if x}}", SECRET)).toThrow(TemplateSyntaxError);
    expect(() => precompileTemplate("{{log issue}}", undefined)).toThrow(TemplateSyntaxError);
  });
});

describe("checkTemplateSyntax", () => {
  it("accepts what the helpers and built-ins take", () => {
    expect(() =>
      checkTemplateSyntax(
        [
          "# {{issueRef issue}} {{issue.title}} ({{priorityLabel issue.priority}})",
          "{{#if project}}{{project.name}}{{else if goal}}{{goal.title}}{{else}}none{{/if}}",
          "{{#unless dispatch}}preview{{/unless}}",
          "{{#each signals as |signal i|}}{{i}} {{signal.title}} {{json signal.payload}} {{@root.api.baseUrl}}{{/each}}",
          "{{#with parent}}{{issueRef this}}{{/with}} {{lookup issue 'title'}} {{json (lookup issue 'labels')}}",
          "{{!-- a comment --}}{{! another }} {{~issue.id~}} \\{{literal}}",
          "{{#children}}{{title}}{{/children}}{{^children}}no children{{/children}}",
        ].join("\n"),
      ),
    ).not.toThrow();
  });

  it("accepts nesting up to 100 deep, in as many blocks as needed", () => {
    const nested = `${"{{#each a}}".repeat(50)}${"{{#if b}}".repeat(50)}x${"{{/if}}".repeat(50)}${"{{/each}}".repeat(50)}`;
    expect(() => checkTemplateSyntax(nested.repeat(3))).not.toThrow();
    expect(() => checkTemplateSyntax(`{{#if a}}${"{{else if b}}x".repeat(99)}{{/if}}`)).not.toThrow();
    expect(() => checkTemplateSyntax(`{{json ${"(json ".repeat(99)}a${")".repeat(99)}}}`)).not.toThrow();
  });

  it("is eager where Handlebars.compile waits for the first render", () => {
    expect(() => Handlebars.create().compile("a\n{{#if x}}")).not.toThrow();
    expect(() => checkTemplateSyntax("a\n{{#if x}}")).toThrow(TemplateSyntaxError);
  });

  it("names line and column in the message and in details, as a 400", () => {
    const error = syntaxError("Title\n  {{#if issue.description}}\nbody\n");
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.status).toBe(400);
    expect(error.line).toBe(2);
    expect(error.column).toBe(3);
    expect(error.message).toBe("content: syntax error at line 2, column 3: {{#if}} is not closed by {{/if}}");
    expect(error.toJSON()).toEqual({
      error: "content: syntax error at line 2, column 3: {{#if}} is not closed by {{/if}}",
      details: [{ path: "content", message: "syntax error at line 2, column 3: {{#if}} is not closed by {{/if}}" }],
    });
  });

  it.each([
    // Parse errors: the parser's message names a line only; the column is where it stopped.
    ["unclosed block", "Title\n  {{#if issue.description}}\nbody\n", 2, 3, "{{#if}} is not closed by {{/if}}"],
    [
      "innermost unclosed block",
      "{{#each xs}}\n{{#with y}}\n{{/with}}\n  {{#if z}}",
      4,
      3,
      "{{#if}} is not closed by {{/if}}",
    ],
    ["unterminated mustache", "one\ntwo {{ foo\nthree", 2, 5, '"{{" is not closed by "}}"'],
    [
      "unterminated mustache before the next",
      "one\n{{#if a}}\n  {{issue.title\n{{/if}}",
      3,
      3,
      '"{{" is not closed by "}}"',
    ],
    ["unterminated triple mustache", "x\n{{{issue.title}}", 2, 15, 'unexpected "}}"'],
    ["else outside a block", "one\nsome {{else}}", 2, 6, 'unexpected "{{else}}"'],
    ["close with nothing open", "one\n  {{/if}}", 2, 3, "{{/if}} closes no open block"],
    ["unterminated string", 'one\n{{json "abc}}', 2, 8, "string is not closed"],
    ["unclosed comment", "one\n  {{!-- note", 2, 3, 'comment is not closed by "--}}"'],
    ["unclosed raw block", "one\n{{{{raw}}}} text", 2, 1, "{{{{raw}}}} is not closed by {{{{/raw}}}}"],
    // Errors Handlebars finds building the tree: it points at the open block's name (0-based column).
    [
      "mismatched close",
      "a\nb\n  {{#if x}}\nfoo {{/each}}\n",
      4,
      5,
      "{{/each}} does not match {{#if}} (line 3, column 3)",
    ],
    [
      "close of an outer block",
      "{{#each xs}}\n  {{#if y}}\n{{/each}}",
      3,
      1,
      "{{/each}} does not match {{#if}} (line 2, column 3)",
    ],
    ["invalid path", "one\n {{issue/../id}}", 2, 4, "Invalid path: issue/.."],
    // Columns count characters: an emoji is one, though two UTF-16 units.
    ["column after an emoji", "ok\n🚀🚀 {{#if x}}", 2, 4, "{{#if}} is not closed by {{/if}}"],
    ["windows line ends", "a\r\nb\r\n {{#if x}}", 3, 2, "{{#if}} is not closed by {{/if}}"],
    // What parses but would throw at render time.
    [
      "partial named at render time",
      "one\n  {{> (lookup issue 'title')}}",
      2,
      3,
      "partial names computed at render time are not available",
    ],
    [
      "the block of a block partial",
      "{{> @partial-block}}",
      1,
      1,
      '"{{> @partial-block}}" is not available in prompt templates',
    ],
    ["inline partial", "one\n{{#*inline 'p'}}x{{/inline}}", 2, 1, "decorators are not available in prompt templates"],
    ["unknown helper", "one\n {{#if a}}{{shout issue.title}}{{/if}}", 2, 11, 'unknown helper "shout"'],
    ["unknown helper in a sub-expression", "{{json (shout x)}}", 1, 8, 'unknown helper "shout"'],
    ["log (it would write the token to the logs)", "one\n{{log this}}", 2, 1, 'unknown helper "log"'],
    ["helper without its argument", "one\n\n  {{#each}}x{{/each}}", 3, 3, "each takes exactly one argument"],
    ["helper with too many arguments", "{{#if a b}}x{{/if}}", 1, 1, "if takes exactly one argument"],
    ["json without an argument", "{{json}}", 1, 1, "json takes exactly one argument"],
    ["lookup with one argument", "{{lookup issue}}", 1, 1, "lookup takes exactly 2 arguments"],
    ["block helper used inline", "one\n {{if a}}", 2, 2, "if must open a block: {{#if …}}…{{/if}}"],
    ["block helper in an else chain", "{{#if a}}x{{else each}}y{{/if}}", 1, 11, "each takes exactly one argument"],
    ["Handlebars' own fallback", "{{helperMissing}}", 1, 1, '"helperMissing" is reserved by Handlebars'],
    // Refused before parsing: Handlebars' parser slows with the square of the depth.
    [
      "blocks past 100 deep",
      `x\n${"{{#if a}}".repeat(101)}`,
      2,
      901, // the 101st {{#if}}: 100 × 9 characters in
      "blocks and sub-expressions nest more than 100 deep",
    ],
    [
      "else-if chain past 100 links",
      `{{#if a}}${"{{else if b}}".repeat(100)}{{/if}}`,
      1,
      1297, // the 100th link, level 101: 9 + 99 × 13 characters in
      "blocks and sub-expressions nest more than 100 deep",
    ],
    [
      "sub-expressions past 100 deep",
      `{{json ${"(json ".repeat(101)}a${")".repeat(101)}}}`,
      1,
      608, // the 101st "(": 7 + 100 × 6 characters in
      "blocks and sub-expressions nest more than 100 deep",
    ],
  ])("%s", (_name, content, line, column, reason) => {
    const error = syntaxError(content);
    expect({ line: error.line, column: error.column, message: error.message }).toEqual({
      line,
      column,
      message: `content: syntax error at line ${line}, column ${column}: ${reason}`,
    });
  });
});

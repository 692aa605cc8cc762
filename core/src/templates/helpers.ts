/**
 * @module templates/helpers — what both sides of template handling share: the prompt helpers and
 * their arity, the compile options, and the error that locates a template's mistake. Writing a
 * version (./compile.ts) checks against these; rendering (./render.ts) runs them.
 */
import { ValidationError } from "../errors.js";

/**
 * A template that cannot be used, located for the author: 1-based line and column (the column
 * counts characters, not UTF-16 units).
 * @example new TemplateSyntaxError(3, 7, "{{#if}} is not closed").message // "content: syntax error at line 3, column 7: {{#if}} is not closed"
 */
export class TemplateSyntaxError extends ValidationError {
  readonly line: number;
  readonly column: number;

  constructor(line: number, column: number, reason: string) {
    const problem = `syntax error at line ${line}, column ${column}: ${reason}`;
    super(`content: ${problem}`, [{ path: "content", message: problem }]);
    this.line = line;
    this.column = column;
  }
}

const PRIORITY_LABELS = ["none", "urgent", "high", "medium", "low"];

/** The value a one-argument helper was given; Handlebars passes its options object last. */
export function argumentOf(args: unknown[]): unknown {
  return args.length > 1 ? args[0] : undefined;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "";
}

function priorityLabel(value: unknown): string {
  return typeof value === "number" && Number.isInteger(value) ? (PRIORITY_LABELS[value] ?? "") : "";
}

function issueRef(value: unknown): string {
  const number =
    typeof value === "object" && value !== null && Object.hasOwn(value, "number")
      ? (value as { number: unknown }).number
      : value;
  return typeof number === "number" && Number.isSafeInteger(number) && number > 0 ? `KZN-${number}` : "";
}

/** The helpers of docs/api.md#templates-and-versions; each takes exactly one argument. */
export const PROMPT_HELPERS: Record<string, (value: unknown) => string> = { json, priorityLabel, issueRef };

/** Arguments each callable helper needs; calling one otherwise fails at render time. */
export const HELPER_ARITY: Record<string, number> = {
  if: 1,
  unless: 1,
  with: 1,
  each: 1,
  lookup: 2,
  ...Object.fromEntries(Object.keys(PROMPT_HELPERS).map((name) => [name, 1])),
};
/** Built-in helpers that fail without a block to render (`options.fn`). */
export const BLOCK_ONLY = new Set(["if", "unless", "with", "each"]);

/** Prompts are Markdown, not HTML: nothing is escaped; a missing value renders empty (not strict). */
export const COMPILE_OPTIONS = { noEscape: true, strict: false } as const;

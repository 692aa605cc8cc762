/**
 * @module templates/compile — Handlebars' compiler, loaded only where content is written or a version
 * has no precompiled form (render.ts `handlebarsReady`): checks content whole and precompiles it.
 */
import Handlebars from "handlebars";
import { BLOCK_ONLY, COMPILE_OPTIONS, HELPER_ARITY, TemplateSyntaxError } from "./helpers.js";

// --- Locating what Handlebars refuses -------------------------------------------------------
// Handlebars' Jison parser throws a bare Error whose text names a line but not a column (its
// `hash.loc` is dropped, and is the last token accepted, not the one refused), so the column is
// read from the lexer it leaves behind and the tokens are read again to name unclosed blocks.

/** Handlebars' parser and lexer: not in its type definitions. */
interface JisonLocation {
  first_line: number;
  first_column: number;
  last_line: number;
  last_column: number;
}
interface JisonParser {
  lexer: { setInput(input: string): void; lex(): number | string; yytext: string; yylloc: JisonLocation; EOF: number };
  terminals_: Record<number, string>;
}

const parser = (Handlebars as unknown as { Parser: JisonParser }).Parser;

interface Token {
  name: string;
  text: string;
  line: number;
  /** 0-based, in UTF-16 units, as the lexer counts. */
  column: number;
}

/** A tag as the author wrote it (`{{#if}}`, `{{/each}}`) and where it starts. */
interface Tag {
  label: string;
  name: string;
  line: number;
  column: number;
}

/** The template's tokens up to the end or to the first text the lexer cannot read. */
function tokensOf(content: string): Token[] {
  const { lexer, terminals_ } = parser;
  const tokens: Token[] = [];
  lexer.setInput(content);
  try {
    // Each token consumes input, so the bound only guards against a lexer that stops advancing.
    while (tokens.length <= content.length + 1) {
      const id = lexer.lex();
      if (id === lexer.EOF) break;
      const name = typeof id === "number" ? (terminals_[id] ?? String(id)) : id;
      tokens.push({ name, text: lexer.yytext, line: lexer.yylloc.first_line, column: lexer.yylloc.first_column });
      if (name === "EOF") break;
    }
  } catch {
    // A lexical error: the tokens before it are all there are.
  }
  return tokens;
}

const MUSTACHE_OPENERS: Record<string, string> = {
  OPEN: "}}",
  OPEN_UNESCAPED: "}}}",
  OPEN_BLOCK: "}}",
  OPEN_INVERSE: "}}",
  OPEN_INVERSE_CHAIN: "}}",
  OPEN_ENDBLOCK: "}}",
  OPEN_PARTIAL: "}}",
  OPEN_PARTIAL_BLOCK: "}}",
  OPEN_RAW_BLOCK: "}}}}",
};
const BLOCK_OPENERS = new Set(["OPEN_BLOCK", "OPEN_INVERSE", "OPEN_PARTIAL_BLOCK", "OPEN_RAW_BLOCK"]);
const MUSTACHE_CLOSERS = new Set(["CLOSE", "CLOSE_UNESCAPED", "CLOSE_RAW_BLOCK"]);

/** The block name after an opener: `foo`, `foo.bar`, `@root.x`, as Handlebars compares them. */
function pathAfter(tokens: Token[], index: number): string {
  let path = "";
  let i = index;
  if (tokens[i]?.name === "DATA") path += tokens[i++]?.text ?? "";
  if (tokens[i]?.name !== "ID") return path;
  path += tokens[i++]?.text ?? "";
  while (tokens[i]?.name === "SEP" && tokens[i + 1]?.name === "ID") {
    path += `${tokens[i]?.text}${tokens[i + 1]?.text}`;
    i += 2;
  }
  return path;
}

/** How blocks and mustaches open and close, up to the first close that does not fit. */
interface Structure {
  /** Blocks still open at the end, innermost last. */
  open: Tag[];
  /** A mustache opened and not closed by the last token read. */
  pendingMustache: (Tag & { closer: string }) | null;
  /** The first closing tag that matches no open block, with the block it met (if any). */
  badClose: { close: Tag; open: Tag | null } | null;
}

/** The structure of the tokens before `end` (by default all of them). */
function structureOf(tokens: Token[], end = tokens.length): Structure {
  const open: Tag[] = [];
  let pendingMustache: Structure["pendingMustache"] = null;
  for (const [index, token] of tokens.slice(0, end).entries()) {
    const at = { line: token.line, column: token.column };
    const closer = MUSTACHE_OPENERS[token.name];
    if (closer) pendingMustache = { ...at, label: token.text.replace("~", ""), name: "", closer };
    else if (MUSTACHE_CLOSERS.has(token.name)) pendingMustache = null;
    if (BLOCK_OPENERS.has(token.name)) {
      const name = pathAfter(tokens, index + 1);
      const label = token.name === "OPEN_RAW_BLOCK" ? `{{{{${name}}}}}` : `${token.text.replace("~", "")}${name}}}`;
      open.push({ ...at, label, name });
    } else if (token.name === "OPEN_ENDBLOCK" || token.name === "END_RAW_BLOCK") {
      const name = token.name === "END_RAW_BLOCK" ? token.text : pathAfter(tokens, index + 1);
      const label = token.name === "END_RAW_BLOCK" ? `{{{{/${name}}}}}` : `{{/${name}}}`;
      const innermost = open.pop() ?? null;
      if (innermost?.name !== name) {
        return { open, pendingMustache, badClose: { close: { ...at, label, name }, open: innermost } };
      }
    }
  }
  return { open, pendingMustache, badClose: null };
}

/**
 * Deepest nesting of blocks, `{{else if}}` chains and sub-expressions accepted. Handlebars' parser
 * copies its stack at every step, so its time grows with the square of the depth (6,000 nested
 * blocks take 15 s) and its tree walkers recurse; deeper content is refused before it is parsed.
 */
const MAX_NESTING = 100;

/** The first token that opens a level past `MAX_NESTING`, or null. */
function tooDeep(tokens: Token[]): Token | null {
  const levels: string[] = [];
  for (const token of tokens) {
    if (BLOCK_OPENERS.has(token.name) || token.name === "OPEN_INVERSE_CHAIN" || token.name === "OPEN_SEXPR") {
      levels.push(token.name);
      if (levels.length > MAX_NESTING) return token;
    } else if (token.name === "CLOSE_SEXPR") {
      if (levels.at(-1) === "OPEN_SEXPR") levels.pop();
    } else if (token.name === "OPEN_ENDBLOCK" || token.name === "END_RAW_BLOCK") {
      // A block's end closes its `{{else if}}` links too.
      while (levels.at(-1) === "OPEN_INVERSE_CHAIN") levels.pop();
      levels.pop();
    }
  }
  return null;
}

/** The 1-based column, in characters, of a position Handlebars gives as 0-based UTF-16 units. */
function columnOf(content: string, line: number, column: number): number {
  const text = content.split(/\r\n|\r|\n/)[line - 1] ?? "";
  return Array.from(text.slice(0, column)).length + 1;
}

function locatedError(content: string, line: number, column: number, reason: string): TemplateSyntaxError {
  return new TemplateSyntaxError(line, columnOf(content, line, column), reason);
}

function offsetOf(content: string, line: number, column: number): number {
  const breaks = /\r\n|\r|\n/g;
  let offset = 0;
  for (let current = 1; current < line; current++) {
    if (!breaks.exec(content)) return content.length;
    offset = breaks.lastIndex;
  }
  return offset + column;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 30 ? `${text.slice(0, 30)}…` : text);
}

/** Tokens that start a tag: met inside an unclosed mustache, they show that it was never closed. */
const TAG_STARTS = new Set([...Object.keys(MUSTACHE_OPENERS), "INVERSE", "COMMENT"]);

/** A Jison "Parse error": the token refused is where the lexer stopped. */
function parseErrorAt(content: string, message: string): TemplateSyntaxError {
  const { first_line: line, first_column: column } = parser.lexer.yylloc;
  const tokens = tokensOf(content);
  const at = tokens.findLastIndex((token) => token.line === line && token.column === column);
  const refused = tokens[at];
  const got = refused?.name ?? /got '([^']+)'/.exec(message)?.[1] ?? "";
  // What was open just before the refused token, not what later text happens to close.
  const before = structureOf(tokens, at === -1 ? tokens.length : at);
  const rest = content.slice(offsetOf(content, line, column));
  if (got === "INVALID" && /^["']/.test(rest)) return locatedError(content, line, column, "string is not closed");
  const pending = before.pendingMustache;
  // The input ends inside a mustache, or the next tag starts before its `}}`.
  const unclosed = got === "EOF" || TAG_STARTS.has(got) || (got === "INVALID" && !/^[^{]*?\}\}/.test(rest));
  if (pending && unclosed) {
    const reason = `${quoted(pending.label)} is not closed by ${quoted(pending.closer)}`;
    return locatedError(content, pending.line, pending.column, reason);
  }
  const innermost = before.open.at(-1);
  if (got === "EOF" && innermost) {
    const expected = innermost.label.startsWith("{{{{") ? `{{{{/${innermost.name}}}}}` : `{{/${innermost.name}}}`;
    return locatedError(content, innermost.line, innermost.column, `${innermost.label} is not closed by ${expected}`);
  }
  if (got === "EOF") return locatedError(content, line, column, "unexpected end of template");
  if (got === "OPEN_ENDBLOCK" && !innermost) {
    return locatedError(content, line, column, `{{/${pathAfter(tokens, at + 1)}}} closes no open block`);
  }
  return locatedError(content, line, column, `unexpected ${quoted(refused?.text ?? rest.slice(0, 1))}`);
}

/** A Jison "Lexical error": the unreadable text starts where the last token read ends. */
function lexicalErrorAt(content: string): TemplateSyntaxError {
  const { last_line: line, last_column: column } = parser.lexer.yylloc;
  const rest = content.slice(offsetOf(content, line, column));
  if (/^\{\{~?!--/.test(rest)) return locatedError(content, line, column, 'comment is not closed by "--}}"');
  // Inside a raw block everything is text up to its end tag, so only a missing end tag stops the lexer.
  const innermost = structureOf(tokensOf(content)).open.at(-1);
  if (innermost?.label.startsWith("{{{{")) {
    return locatedError(
      content,
      innermost.line,
      innermost.column,
      `${innermost.label} is not closed by {{{{/${innermost.name}}}}}`,
    );
  }
  return locatedError(content, line, column, "unreadable text");
}

/** A Handlebars Exception from building the tree (`if doesn't match each - 3:5`), 0-based column. */
function exceptionAt(content: string, error: Handlebars.Exception): TemplateSyntaxError {
  const reason = error.message.replace(/ - \d+:\d+$/, "");
  if (/doesn't match/.test(reason)) {
    // Handlebars points at the opening block's name; the author's mistake shows at the close.
    const bad = structureOf(tokensOf(content)).badClose;
    if (bad?.open) {
      const { close, open } = bad;
      const opened = `line ${open.line}, column ${columnOf(content, open.line, open.column)}`;
      return locatedError(content, close.line, close.column, `${close.label} does not match ${open.label} (${opened})`);
    }
  }
  if (typeof error.lineNumber === "number" && typeof error.column === "number") {
    return locatedError(content, error.lineNumber, error.column, reason);
  }
  return new TemplateSyntaxError(1, 1, reason);
}

/** What Handlebars threw while reading `content`, as a located error; anything else is rethrown. */
function syntaxErrorFrom(content: string, error: unknown): TemplateSyntaxError {
  if (error instanceof Handlebars.Exception) return exceptionAt(content, error);
  // A backstop: nesting is capped before parsing, but Handlebars' tree walkers recurse.
  if (error instanceof RangeError) return new TemplateSyntaxError(1, 1, "the template nests too deeply");
  if (error instanceof Error && error.message.startsWith("Parse error")) return parseErrorAt(content, error.message);
  if (error instanceof Error && error.message.startsWith("Lexical error")) return lexicalErrorAt(content);
  throw error;
}

// --- What parses but would fail at render time ------------------------------------------------

/** The parts of Handlebars' tree the checks read; several are absent on some node types. */
interface AstNode {
  type: string;
  loc?: { start: { line: number; column: number } } | null;
  body?: AstNode[];
  path?: AstNode;
  params?: AstNode[];
  hash?: { pairs: { value: AstNode }[] } | null;
  program?: AstNode | null;
  inverse?: AstNode | null;
  data?: boolean;
  depth?: number;
  parts?: string[];
  original?: unknown;
  /** What a partial statement includes: a name, or a sub-expression computing one. */
  name?: AstNode;
}

const CALLS = new Set(["MustacheStatement", "BlockStatement", "SubExpression"]);

/** The helper a call names when it is a plain name (`json`, not `this.json` or `@json`). */
function simpleName(path: AstNode | undefined): string | null {
  if (path?.type !== "PathExpression" || path.data || path.depth !== 0) return null;
  const [name, ...more] = path.parts ?? [];
  return name !== undefined && more.length === 0 && path.original === name ? name : null;
}

/** Why a call would throw at render time, or null when it renders. */
function callProblem(node: AstNode, helpers: Readonly<Record<string, unknown>>): string | null {
  const name = simpleName(node.path);
  const params = node.params?.length ?? 0;
  if (name === null || !Object.hasOwn(helpers, name)) {
    // An unknown name with arguments is a call to a missing helper; without, it reads a value.
    return params > 0 ? `unknown helper ${quoted(String(node.path?.original ?? ""))}` : null;
  }
  const arity = HELPER_ARITY[name];
  if (arity === undefined) return `${quoted(name)} is reserved by Handlebars`;
  if (BLOCK_ONLY.has(name) && node.type !== "BlockStatement") {
    return `${name} must open a block: {{#${name} …}}…{{/${name}}}`;
  }
  if (params !== arity) return `${name} takes exactly ${arity === 1 ? "one argument" : `${arity} arguments`}`;
  return null;
}

/**
 * Why a partial statement cannot render here, or null: only a partial named in the content itself
 * (`{{> name}}`, `{{#> name}}…{{/name}}`) is read before rendering (docs/api.md#partials).
 */
function partialProblem(node: AstNode): string | null {
  if (node.name?.type === "SubExpression") return "partial names computed at render time are not available";
  if (node.name?.type === "PathExpression" && node.name.data) {
    return `${quoted(`{{> ${String(node.name.original)}}}`)} is not available in prompt templates`;
  }
  return null;
}

/** A partial the content includes by name, where it first does (1-based line, 0-based column). */
export interface PartialReference {
  name: string;
  line: number;
  column: number;
}

/** The partials `node` names, each once, in the order they first appear. */
function partialReferences(node: AstNode, found = new Map<string, PartialReference>()): PartialReference[] {
  if ((node.type === "PartialStatement" || node.type === "PartialBlockStatement") && node.name) {
    const name = String(node.name.original ?? "");
    const start = node.loc?.start ?? { line: 1, column: 0 };
    if (!found.has(name)) found.set(name, { name, line: start.line, column: start.column });
  }
  for (const child of [
    ...(node.body ?? []),
    ...(node.program ? [node.program] : []),
    ...(node.inverse ? [node.inverse] : []),
  ]) {
    partialReferences(child, found);
  }
  return [...found.values()];
}

/** The first construct that parses but cannot render here: computed partials, decorators, bad helper calls. */
function firstRenderProblem(
  node: AstNode,
  helpers: Readonly<Record<string, unknown>>,
): { node: AstNode; reason: string } | null {
  if (node.type === "PartialStatement" || node.type === "PartialBlockStatement") {
    const reason = partialProblem(node);
    if (reason) return { node, reason };
  }
  if (node.type === "Decorator" || node.type === "DecoratorBlock") {
    return { node, reason: "decorators are not available in prompt templates" };
  }
  if (CALLS.has(node.type)) {
    const reason = callProblem(node, helpers);
    if (reason) return { node, reason };
  }
  const children = [
    ...(node.body ?? []),
    ...(node.name && node.name.type === "SubExpression" ? [node.name] : []),
    ...(node.path ? [node.path] : []),
    ...(node.params ?? []),
    ...(node.hash?.pairs.map((pair) => pair.value) ?? []),
    ...(node.program ? [node.program] : []),
    ...(node.inverse ? [node.inverse] : []),
  ];
  for (const child of children) {
    const problem = firstRenderProblem(child, helpers);
    if (problem) return problem;
  }
  return null;
}

/**
 * Refuses content that would fail now or at render time, naming line and column: Handlebars syntax,
 * block mismatches, and what parses but cannot render here (computed partial names, decorators, unknown helpers,
 * `{{#if}}` without its one argument). Precompiles eagerly (`Handlebars.compile` alone waits for
 * the first render) and returns what it wrote: the template spec, JavaScript source that
 * Handlebars' runtime runs. `helpers`: what the prompt environment can call, built-ins included.
 * @example checkedSpec("Fix {{issueRef issue}}\n{{#if parent}}", promptHelpers()) // throws TemplateSyntaxError (line 2, column 1)
 */
export function checkedSpec(content: string, helpers: Readonly<Record<string, unknown>>): string {
  return checkedTemplate(content, helpers).spec;
}

/**
 * What {@link checkedSpec} checks and returns, with the partials the content names (read from its
 * tree, so a `{{> name}}` inside a comment or a raw block is not one). Columns are 1-based characters.
 * @example checkedTemplate("{{> kaizen-reporting}}", promptHelpers()).partials // [{ name: "kaizen-reporting", line: 1, column: 1 }]
 */
export function checkedTemplate(
  content: string,
  helpers: Readonly<Record<string, unknown>>,
): { spec: string; partials: PartialReference[] } {
  const deep = tooDeep(tokensOf(content));
  if (deep) {
    throw locatedError(
      content,
      deep.line,
      deep.column,
      `blocks and sub-expressions nest more than ${MAX_NESTING} deep`,
    );
  }
  let tree: AstNode;
  try {
    tree = Handlebars.parse(content) as unknown as AstNode;
  } catch (error) {
    throw syntaxErrorFrom(content, error);
  }
  const problem = firstRenderProblem(tree, helpers);
  if (problem) {
    const start = problem.node.loc?.start ?? { line: 1, column: 0 };
    throw locatedError(content, start.line, start.column, problem.reason);
  }
  const partials = partialReferences(tree).map((found) => ({
    ...found,
    column: columnOf(content, found.line, found.column),
  }));
  try {
    return { spec: String(Handlebars.precompile(content, COMPILE_OPTIONS)), partials };
  } catch (error) {
    throw syntaxErrorFrom(content, error);
  }
}

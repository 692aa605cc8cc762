/**
 * @module templates/render — prompt text from a template version: content is checked and precompiled
 * when a version is written (./compile.ts), and stored versions run on Handlebars' runtime; both are
 * loaded on first use.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type Handlebars from "handlebars";
import type { Goal, Project } from "../catalog/schemas.js";
import type { IssueSummary } from "../issues/issue-service.js";
import type { Feedback, Issue, PullRequest } from "../issues/schemas.js";
import { argumentOf, PROMPT_HELPERS } from "./helpers.js";

export { TemplateSyntaxError } from "./helpers.js";

/** Another issue as a prompt names it: parent, child, sibling, blocker. */
export type PromptIssueSummary = IssueSummary;

/** What a prompt may say about the issue's project (the catalog's project has more). */
export type PromptProject = Pick<Project, "id" | "name" | "description" | "status" | "health">;

/** What a prompt may say about the goal of the issue's project. */
export type PromptGoal = Omit<Goal, "projectId" | "createdAt" | "updatedAt">;

/** An earlier hand-off of the same issue, so the next agent learns from it. */
export interface PromptPreviousDispatch {
  id: string;
  status: string;
  agent: string;
  attempt: number;
  summary: string | null;
  finishedAt: string | null;
  /** The pull requests it completed with (docs/api.md#review). */
  pullRequests: PullRequest[];
}

/** A signal linked to the issue, with the provider's payload as received. */
export interface PromptSignal {
  id: string;
  source: string;
  type: string;
  severity: string;
  title: string;
  receivedAt: string;
  payload: unknown;
}

/**
 * Everything a template can name (docs/api.md#templates-and-versions). Built by templates/prompt-context-builder.ts; holds the dispatch's
 * own token but never the service's API key, so no template can reveal that key.
 */
export interface PromptContext {
  issue: Issue;
  parent: PromptIssueSummary | null;
  children: PromptIssueSummary[];
  siblings: PromptIssueSummary[];
  project: PromptProject | null;
  goal: PromptGoal | null;
  labels: { name: string; color: string }[];
  /** Open issues waiting on this one. */
  blocking: PromptIssueSummary[];
  /** Open issues this one waits on. */
  blockedBy: PromptIssueSummary[];
  previousDispatches: PromptPreviousDispatch[];
  /** What review and checks said of its pull requests, newest last (docs/api.md#review). */
  feedback: Feedback[];
  /** How many times review sent it back. */
  reviewRounds: number;
  /** The latest 5, newest first. */
  signals: PromptSignal[];
  /** Null when the prompt is a preview rather than a claim. */
  dispatch: { id: string; token: string; leaseExpiresAt: string } | null;
  prompt: { id: string } | null;
  api: { baseUrl: string };
}

// Said explicitly rather than left to the defaults: inherited properties (`constructor`,
// `__proto__`, `toString`) render empty, and Handlebars does not log each attempt.
const RUNTIME_OPTIONS = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false } as const;

/** What of Handlebars' runtime renders prompts (its type definitions describe the whole of Handlebars). */
interface RuntimeEnvironment {
  create(): RuntimeEnvironment;
  template<T>(spec: TemplateSpecification): Handlebars.TemplateDelegate<T>;
  registerHelper(name: string, helper: Handlebars.HelperDelegate): void;
  unregisterHelper(name: string): void;
  helpers: Record<string, unknown>;
}

type PromptTemplate = Handlebars.TemplateDelegate<PromptContext>;

// Handlebars is loaded on first use, not when a function starts, and is bundled apart (chunks read
// on demand): most requests of the functions that carry it never render, and rendering a stored
// version needs only the runtime, not the compiler (and the source-map library it brings).

let environment: RuntimeEnvironment | undefined;
let runtimeLoading: Promise<void> | undefined;

/**
 * Loads Handlebars' runtime once per process (again after a failure) and makes the prompt
 * environment: one of our own, so helpers registered here never leak into (or from) other users of
 * the Handlebars singleton.
 */
function runtimeReady(): Promise<void> {
  runtimeLoading ??= import("handlebars/runtime").then(
    (module) => {
      const runtime = ((module as { default?: unknown }).default ?? module) as RuntimeEnvironment;
      const created = runtime.create();
      // `{{log this}}` would write the context, dispatch token included, to the function's logs.
      created.unregisterHelper("log");
      for (const [name, helper] of Object.entries(PROMPT_HELPERS)) {
        created.registerHelper(name, (...args: unknown[]) => helper(argumentOf(args)));
      }
      environment = created;
    },
    (error: unknown) => {
      runtimeLoading = undefined;
      throw error;
    },
  );
  return runtimeLoading;
}

/** The prompt environment; throws unless the runtime is loaded (a programming error, not a client's). */
function promptEnvironment(): RuntimeEnvironment {
  if (environment === undefined) throw new Error("Handlebars is not loaded yet: await handlebarsReady() first");
  return environment;
}

/** The helpers a template may call, built-ins included (what ./compile.ts checks calls against). */
export function promptHelpers(): Readonly<Record<string, unknown>> {
  return promptEnvironment().helpers;
}

// --- Writing a version: the compiler ----------------------------------------------------------

let compiler: typeof import("./compile.js") | undefined;
let compilerLoading: Promise<void> | undefined;

/**
 * Loads Handlebars, compiler included, once per process (again after a failure). Await it before
 * {@link checkTemplateSyntax}, {@link precompileTemplate}, or {@link renderTemplate} of a version
 * not rendered before.
 * @example await handlebarsReady(); checkTemplateSyntax(content);
 */
export function handlebarsReady(): Promise<void> {
  compilerLoading ??= Promise.all([runtimeReady(), import("./compile.js")]).then(
    ([, module]) => {
      compiler = module;
    },
    (error: unknown) => {
      compilerLoading = undefined;
      throw error;
    },
  );
  return compilerLoading;
}

/** The compiler; throws unless {@link handlebarsReady} has finished (a programming error, not a client's). */
function loadedCompiler(): typeof import("./compile.js") {
  if (compiler === undefined) throw new Error("Handlebars is not loaded yet: await handlebarsReady() first");
  return compiler;
}

/**
 * Refuses content that would fail now or at render time, naming line and column: Handlebars syntax,
 * block mismatches, and what parses but cannot render here (partials, decorators, unknown helpers,
 * `{{#if}}` without its one argument). Compiles eagerly: `Handlebars.compile` alone waits for the
 * first render.
 * @example await handlebarsReady(); checkTemplateSyntax("Fix {{issueRef issue}}\n{{#if parent}}") // throws TemplateSyntaxError (line 2, column 1)
 */
export function checkTemplateSyntax(content: string): void {
  loadedCompiler().checkedSpec(content, promptHelpers());
}

/**
 * A version's precompiled form, stored with it: Handlebars' template spec for its content, deflated
 * (the spec is several times the content's size, and repetitive).
 */
export type CompiledTemplate = Uint8Array;

/**
 * Most bytes of content and precompiled form kept together on a version item (DynamoDB items stop at
 * 400 KB): larger versions are stored without their precompiled form and compiled when rendered.
 */
const MAX_STORED_VERSION_BYTES = 300 * 1024;

/** Bytes of the seal in front of a stored precompiled form (an HMAC-SHA256). */
const SEAL_BYTES = 32;

/**
 * The seal of a precompiled form: an HMAC-SHA256 keyed with a key derived from the service's own
 * secret, so only this service can write a spec that rendering will run (a spec is code).
 */
function sealOf(deflated: Uint8Array, secret: string): Buffer {
  const key = createHmac("sha256", secret).update("kaizen template version seal").digest();
  return createHmac("sha256", key).update(deflated).digest();
}

/**
 * Checks content as {@link checkTemplateSyntax} does and returns its precompiled form, sealed with
 * `secret` (the service key), or undefined when there is no secret to seal it with or it would not
 * fit beside the content in the version's item (such versions are compiled when rendered).
 * @example await handlebarsReady(); const compiled = precompileTemplate("Fix {{issue.title}}", serviceApiKey);
 */
export function precompileTemplate(content: string, secret: string | undefined): CompiledTemplate | undefined {
  const deflated = deflateRawSync(loadedCompiler().checkedSpec(content, promptHelpers()));
  if (!secret) return undefined;
  const compiled = Buffer.concat([sealOf(deflated, secret), deflated]);
  return compiled.byteLength + Buffer.byteLength(content, "utf8") <= MAX_STORED_VERSION_BYTES ? compiled : undefined;
}

/**
 * Refuses content that would not render (400 naming line and column) and returns its precompiled
 * form, stored with the version so that rendering it needs only Handlebars' runtime; loads the compiler first.
 * @example const compiled = await checkedContent(input.content, serviceApiKey);
 */
export async function checkedContent(
  content: string,
  secret: string | undefined,
): Promise<CompiledTemplate | undefined> {
  await handlebarsReady();
  return precompileTemplate(content, secret);
}

// --- Rendering: the runtime --------------------------------------------------------------------

/** The template Handlebars' runtime makes of a spec: the code `Handlebars.compile` would have built from the same content. */
function templateOfSpec(spec: string): PromptTemplate {
  // The spec is JavaScript that this service's compiler wrote from content it checked, and its seal
  // (templateOfCompiled) proves it: nothing else that can write the table gets code run here.
  const evaluated = new Function(`return (${spec});`)() as TemplateSpecification;
  return promptEnvironment().template<PromptContext>(evaluated);
}

/**
 * A stored precompiled form as a template, or undefined when its seal is not this service's (written
 * by anything else, or under another key: it never runs) or this runtime cannot run it (another
 * compiler revision).
 */
function templateOfCompiled(compiled: CompiledTemplate, secret: string | undefined): PromptTemplate | undefined {
  if (!secret || compiled.byteLength <= SEAL_BYTES) return undefined;
  const seal = compiled.subarray(0, SEAL_BYTES);
  const deflated = compiled.subarray(SEAL_BYTES);
  if (!timingSafeEqual(seal, sealOf(deflated, secret))) return undefined;
  try {
    return templateOfSpec(inflateRawSync(deflated).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Templates kept; a version's content never changes, so an entry never goes stale. */
const CACHE_LIMIT = 500;
const templates = new Map<string, PromptTemplate>();

/** Keeps `template` as the most recently used, letting the least recently used of {@link CACHE_LIMIT} go. */
function keep(versionId: string, template: PromptTemplate): void {
  templates.delete(versionId);
  templates.set(versionId, template);
  if (templates.size > CACHE_LIMIT) {
    const oldest = templates.keys().next().value;
    if (oldest !== undefined) templates.delete(oldest);
  }
}

/**
 * The prompt text of one template version for one context. A version not rendered before is
 * checked and compiled from `content` (the compiler must be loaded: {@link handlebarsReady}) and
 * kept (the least recently used of 500 versions gives way); later calls with the same version id
 * reuse it, whatever `content` they pass.
 * @example renderTemplate("ver_01J…", "Work on {{issueRef issue}}: {{issue.title}}", context) // "Work on KZN-7: Checkout times out"
 */
export function renderTemplate(versionId: string, content: string, context: PromptContext): string {
  const template = templates.get(versionId) ?? templateOfSpec(loadedCompiler().checkedSpec(content, promptHelpers()));
  keep(versionId, template);
  return template(context, RUNTIME_OPTIONS);
}

/** A stored version as rendering reads it. */
export interface RenderableVersion {
  id: string;
  content: string;
  /** Absent on versions written before versions were precompiled, and on very large ones. */
  compiled?: CompiledTemplate | undefined;
}

/**
 * The prompt text of a stored version: run from its precompiled form when it has one sealed with
 * `secret`, so the compiler loads only for a version without one (see {@link RenderableVersion.compiled}).
 * @example await renderStoredVersion({ id, content, compiled }, context, serviceApiKey)
 */
export async function renderStoredVersion(
  version: RenderableVersion,
  context: PromptContext,
  secret: string | undefined,
): Promise<string> {
  await runtimeReady();
  if (!templates.has(version.id)) {
    const template = version.compiled && templateOfCompiled(version.compiled, secret);
    if (template) keep(version.id, template);
    else await handlebarsReady();
  }
  return renderTemplate(version.id, version.content, context);
}

/** How many compiled versions are kept (for tests of the cache). */
export function compiledCacheSize(): number {
  return templates.size;
}

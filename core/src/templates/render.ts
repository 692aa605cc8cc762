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
import type { PartialReference } from "./compile.js";
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
  registerPartial(name: string, partial: Handlebars.Template): void;
  unregisterHelper(name: string): void;
  helpers: Record<string, unknown>;
}

type PromptTemplate = Handlebars.TemplateDelegate<PromptContext>;

// Handlebars is loaded on first use, not when a function starts, and is bundled apart (chunks read
// on demand): most requests of the functions that carry it never render, and rendering a stored
// version needs only the runtime, not the compiler (and the source-map library it brings).

let runtime: RuntimeEnvironment | undefined;
let environment: RuntimeEnvironment | undefined;
let runtimeLoading: Promise<void> | undefined;

/** A prompt environment of `base`'s making: the prompt helpers, and no `log`. */
function newPromptEnvironment(base: RuntimeEnvironment): RuntimeEnvironment {
  const created = base.create();
  // `{{log this}}` would write the context, dispatch token included, to the function's logs.
  created.unregisterHelper("log");
  for (const [name, helper] of Object.entries(PROMPT_HELPERS)) {
    created.registerHelper(name, (...args: unknown[]) => helper(argumentOf(args)));
  }
  return created;
}

/**
 * Loads Handlebars' runtime once per process (again after a failure) and makes the prompt
 * environment: one of our own, so helpers registered here never leak into (or from) other users of
 * the Handlebars singleton.
 */
function runtimeReady(): Promise<void> {
  runtimeLoading ??= import("handlebars/runtime").then(
    (module) => {
      runtime = ((module as { default?: unknown }).default ?? module) as RuntimeEnvironment;
      environment = newPromptEnvironment(runtime);
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
 * block mismatches, and what parses but cannot render here (computed partial names, decorators, unknown helpers,
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
  return checkedForm(content, secret).compiled;
}

/** Content checked: its sealed precompiled form (see {@link precompileTemplate}) and the partials it names. */
export interface CheckedContent {
  compiled: CompiledTemplate | undefined;
  partials: PartialReference[];
}

function checkedForm(content: string, secret: string | undefined): CheckedContent {
  const { spec, partials } = loadedCompiler().checkedTemplate(content, promptHelpers());
  const deflated = deflateRawSync(spec);
  if (!secret) return { compiled: undefined, partials };
  const compiled = Buffer.concat([sealOf(deflated, secret), deflated]);
  const fits = compiled.byteLength + Buffer.byteLength(content, "utf8") <= MAX_STORED_VERSION_BYTES;
  return { compiled: fits ? compiled : undefined, partials };
}

/**
 * Refuses content that would not render (400 naming line and column) and returns its precompiled
 * form, stored with the version (or partial) so that rendering it needs only Handlebars' runtime,
 * with the partials it names; loads the compiler first.
 * @example const { compiled, partials } = await checkedContent(input.content, serviceApiKey);
 */
export async function checkedContent(content: string, secret: string | undefined): Promise<CheckedContent> {
  await handlebarsReady();
  return checkedForm(content, secret);
}

// --- Rendering: the runtime --------------------------------------------------------------------

/** The template specification a spec's source evaluates to: what Handlebars' runtime runs. */
function evaluatedSpec(spec: string): TemplateSpecification {
  // The spec is JavaScript that this service's compiler wrote from content it checked, and its seal
  // (specOfCompiled) proves it: nothing else that can write the table gets code run here.
  return new Function(`return (${spec});`)() as TemplateSpecification;
}

/** The template Handlebars' runtime makes of a spec: the code `Handlebars.compile` would have built from the same content. */
function templateOfSpec(spec: string): PromptTemplate {
  return promptEnvironment().template<PromptContext>(evaluatedSpec(spec));
}

/**
 * A stored precompiled form as a specification, or undefined when its seal is not this service's
 * (written by anything else, or under another key: it never runs) or this runtime cannot run it
 * (another compiler revision).
 */
function specOfCompiled(compiled: CompiledTemplate, secret: string | undefined): TemplateSpecification | undefined {
  if (!secret || compiled.byteLength <= SEAL_BYTES) return undefined;
  const seal = compiled.subarray(0, SEAL_BYTES);
  const deflated = compiled.subarray(SEAL_BYTES);
  if (!timingSafeEqual(seal, sealOf(deflated, secret))) return undefined;
  try {
    const spec = evaluatedSpec(inflateRawSync(deflated).toString("utf8"));
    // Checked here, once, so that a spec of another compiler revision falls back to the content.
    promptEnvironment().template(spec);
    return spec;
  } catch {
    return undefined;
  }
}

/** A stored precompiled form as a template of the shared prompt environment (see {@link specOfCompiled}). */
function templateOfCompiled(compiled: CompiledTemplate, secret: string | undefined): PromptTemplate | undefined {
  const spec = specOfCompiled(compiled, secret);
  return spec && promptEnvironment().template<PromptContext>(spec);
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

// --- Rendering with partials -------------------------------------------------------------------

/** A partial as rendering reads it (docs/api.md#partials). */
export interface RenderablePartial {
  name: string;
  /** Changes whenever its content does (a partial deleted and made again included). */
  revision: string;
  content: string;
  compiled?: CompiledTemplate | undefined;
}

/** Specifications kept, by `v:<version id>` or `p:<partial name>@<revision>`: neither changes under its key. */
const specs = new Map<string, TemplateSpecification>();

/**
 * The specification of stored content, kept under `key`: from its sealed precompiled form, or
 * compiled from its content once the compiler is loaded; undefined while it is not.
 */
function specOf(
  key: string,
  stored: { content: string; compiled?: CompiledTemplate | undefined },
  secret: string | undefined,
): TemplateSpecification | undefined {
  const spec =
    specs.get(key) ??
    (stored.compiled && specOfCompiled(stored.compiled, secret)) ??
    (compiler && evaluatedSpec(compiler.checkedSpec(stored.content, promptHelpers())));
  if (spec === undefined) return undefined;
  specs.delete(key);
  specs.set(key, spec);
  if (specs.size > CACHE_LIMIT) {
    const oldest = specs.keys().next().value;
    if (oldest !== undefined) specs.delete(oldest);
  }
  return spec;
}

/**
 * The prompt text of a stored version that includes partials, each with the content given (as read
 * at this moment). The render gets a Handlebars environment of its own (`create()`), so partials
 * registered for it are never seen by another render, however many run at once; a partial named
 * but not given (deleted since the version was checked) renders empty.
 * @example await renderWithPartials(version, ["kaizen-reporting"], [reporting], context, serviceApiKey)
 */
export async function renderWithPartials(
  version: RenderableVersion,
  named: readonly string[],
  partials: readonly RenderablePartial[],
  context: PromptContext,
  secret: string | undefined,
): Promise<string> {
  await runtimeReady();
  const sources = [
    { key: `v:${version.id}`, name: "", stored: version },
    ...partials.map((partial) => ({
      key: `p:${partial.name}@${partial.revision}`,
      name: partial.name,
      stored: partial,
    })),
  ];
  let found = sources.map(({ key, stored }) => specOf(key, stored, secret));
  if (found.includes(undefined)) {
    await handlebarsReady();
    found = sources.map(({ key, stored }) => specOf(key, stored, secret));
  }
  if (runtime === undefined) throw new Error("Handlebars is not loaded yet: await handlebarsReady() first");
  const isolated = newPromptEnvironment(runtime);
  for (const name of named) isolated.registerPartial(name, () => "");
  const [versionSpec, ...partialSpecs] = found as TemplateSpecification[];
  for (const [index, spec] of partialSpecs.entries()) {
    isolated.registerPartial(sources[index + 1]?.name ?? "", isolated.template(spec));
  }
  const template = isolated.template<PromptContext>(versionSpec as TemplateSpecification);
  return template(context, RUNTIME_OPTIONS);
}

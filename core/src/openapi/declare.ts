/**
 * @module openapi/declare — the shape of a route's one declaration (docs/contributing.md#adding-a-route):
 * what the app needs to serve it (http/app `RouteDeclaration`: guard, body limit, request schemas)
 * and what the OpenAPI document says of it (its answers and its text). Each family declares its
 * routes in `core/src/<domain>/api.ts`; the route table, the document, the typed client and request
 * validation are all derived from those files.
 */
import type { RouteDeclaration } from "../http/app.js";
import type { HttpMethod } from "../routes.js";
import type { ResourceName } from "./resources.js";
import { TEXT } from "./text.js";

export { LAMBDA_BUNDLE_DEFINE, TEXT } from "./text.js";

/** What an issue's `:id` (or `:issueId`) takes, in several families' routes. */
export const ISSUE_REF = TEXT ? "Issue id (`iss_…`) or `KZN-<number>`" : "";

/** What a route answers when it succeeds. */
export type Success =
  /**
   * `{"data": <resource>}`, 200 unless said, with the resource's `ETag`. `location`: whether a
   * `Location` names where the resource is read (docs/api.md#concurrency-and-idempotency); by default a
   * 201 does, `false` for what no route reads one at a time, `true` for a 200 that hands one out.
   */
  | { readonly status?: 200 | 201; readonly item: ResourceName; readonly location?: boolean }
  /** `{"data": [<resource>…], "total": N}` */
  | { readonly list: ResourceName }
  /** No body; perhaps headers (each with the values it can take) that say why. */
  | { readonly status: 204; readonly headers?: Readonly<Record<string, readonly string[]>> }
  /**
   * A body that is not an envelope: `GET /health`, the document itself, the docs page, the console and
   * their files, the remote MCP endpoint's JSON-RPC answers.
   */
  | { readonly raw: "health" | "openapi" | "html" | "text" | "asset" | "jsonrpc" };

/** The prose of a route in the OpenAPI document. */
export interface Doc {
  readonly summary: string;
  readonly description?: string;
  /** What each `:param` of the path names. */
  readonly params?: Readonly<Record<string, string>>;
  /** What the success answers (the response's description). */
  readonly success: string;
  /** What the second success answers. */
  readonly alsoSuccess?: string;
  /** What each header of a 204 success says. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One route: how it is served and guarded, what it takes, what it answers, and its text. */
export interface Declaration extends RouteDeclaration {
  readonly success: Success;
  /** A second success: the claim's 204 when nothing is eligible, a receiver's 200 for a duplicate. */
  readonly alsoSuccess?: Success;
  /** Statuses besides those every route of its kind can answer (see openapi/document). */
  readonly errors?: readonly (404 | 409 | 429)[];
  /** `false`: answers without the database, so never 503. */
  readonly database?: false;
  /** `TEXT && {…}`: the prose, which Lambda bundles leave out. */
  readonly doc: false | Doc;
}

/** A family's routes, keyed `"METHOD /path"` (Hono's `:param` syntax), in the order the table and the document list them. */
export type Declarations = Readonly<Record<`${HttpMethod} /${string}`, Declaration>>;

/** The status a success answers with. */
export function successStatus(success: Success): 200 | 201 | 204 {
  return "status" in success && success.status !== undefined ? success.status : 200;
}

/** Whether a success's answer carries a `Location` (an item's, see {@link Success}). */
export function namesLocation(success: Success): boolean {
  return "item" in success && (success.location ?? successStatus(success) === 201);
}

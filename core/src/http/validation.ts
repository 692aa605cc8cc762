/** @module http/validation — runs zod schemas over request input (the empty one of a route that takes no body too) and turns failures into 400s that name each field. */

import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { type FieldProblem, ValidationError } from "../errors.js";
import type { RouteSpec } from "../routes.js";

/** Set on the first parse, not at import (a cold start builds nothing of zod's: ../schema.ts). */
let configured = false;

/**
 * Parses `input` with `schema`, or throws a {@link ValidationError} whose message names the first
 * problem and whose `details` list them all.
 * @example const body = parseWith(createIssueBody, json, "body");
 */
export function parseWith<T extends z.ZodMiniType>(schema: T, input: unknown, where: "body" | "query"): z.output<T> {
  if (!configured) {
    // English messages only: `z.locales` would pull every language pack into each bundle.
    z.config(en());
    configured = true;
  }
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  // A query parameter is one name: a list inside it (`status=a,b`) is still that parameter.
  const details = result.error.issues
    .map(toProblem)
    .map((problem) => (where === "query" ? { ...problem, path: problem.path.split(".")[0] ?? "" } : problem));
  const first = details[0];
  const message = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : `Invalid ${where}`;
  throw new ValidationError(message, details);
}

/**
 * Whether a route takes no body (docs/api.md#envelopes): a bearer route other than a GET that declares
 * none and does not read its own (`ownBody`, the remote MCP endpoint's JSON-RPC). What is sent to it
 * is still read, through {@link emptyBody}, so a body it would ignore is refused instead.
 * @example takesNoBody({ method: "POST", auth: "bearer" }, {}) // true: `POST /api/dispatch/:id/release`
 */
export function takesNoBody(
  route: Pick<RouteSpec, "method" | "auth">,
  declaration: { readonly body?: unknown; readonly ownBody?: true },
): boolean {
  return route.auth === "bearer" && route.method !== "GET" && !declaration.body && !declaration.ownBody;
}

/**
 * The body of a route that {@link takesNoBody}, when one is sent: `{}` alone, refused as a strict
 * body's schema refuses anything else, with the same messages. Checked by hand, not by a schema:
 * every function serves such a route, and an object schema would add zod's object parser to those
 * that validate no other body (docs/contributing.md#budgets).
 * @example checkEmptyBody({ bogus: true }) // throws 400 "unknown field: bogus"
 */
export function checkEmptyBody(value: unknown): void {
  let message: string | undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const received = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    message = `Invalid input: expected object, received ${received}`;
  } else {
    const keys = Object.keys(value);
    if (keys.length > 0) message = `unknown field${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}`;
  }
  if (message !== undefined) throw new ValidationError(message, [{ path: "", message }]);
}

function toProblem(issue: z.core.$ZodIssue): FieldProblem {
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.join(", ");
    return { path, message: `unknown field${issue.keys.length > 1 ? "s" : ""}: ${keys}` };
  }
  return { path, message: issue.message };
}

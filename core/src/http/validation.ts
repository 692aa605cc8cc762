/** @module http/validation — runs zod schemas over request input and turns failures into 400s that name each field. */

import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { type FieldProblem, ValidationError } from "../errors.js";

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

function toProblem(issue: z.core.$ZodIssue): FieldProblem {
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.join(", ");
    return { path, message: `unknown field${issue.keys.length > 1 ? "s" : ""}: ${keys}` };
  }
  return { path, message: issue.message };
}

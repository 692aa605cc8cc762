/**
 * @module templates/partial-includes — what content may include (docs/api.md#partials): partials that
 * exist, without a cycle, and what a write that lost one of them to a delete tells its client.
 */
import type { ConditionFailedError } from "../db/db.js";
import { fieldError, type ValidationError } from "../errors.js";
import type { PartialReference } from "./compile.js";
import type { PartialStore, StoredPartial } from "./partial-store.js";

/** Partials one content may name: each use is two writes of its transaction (DynamoDB takes 100). */
export const MAX_INCLUDED_PARTIALS = 20;

/** Partials a cycle check may read through before it gives up: their checks ride in the write's transaction. */
const MAX_WALKED_PARTIALS = 40;

function located(reference: PartialReference): string {
  return `(line ${reference.line}, column ${reference.column})`;
}

/**
 * The partials `references` name, as stored now (one read); a 400 naming every one that does not exist.
 * @example await includedPartials(store, [{ name: "kaizen-reporting", line: 4, column: 1 }]) // [StoredPartial]
 */
export async function includedPartials(
  store: PartialStore,
  references: readonly PartialReference[],
): Promise<StoredPartial[]> {
  if (references.length === 0) return [];
  if (references.length > MAX_INCLUDED_PARTIALS) {
    const reason = `names ${references.length} partials; at most ${MAX_INCLUDED_PARTIALS} may be included`;
    throw fieldError("content", reason);
  }
  const found = await store.getMany(references.map(({ name }) => name));
  const missing = references.filter(({ name }) => !found.has(name));
  if (missing.length > 0) {
    const problems = missing.map((reference) => `partial "${reference.name}" does not exist ${located(reference)}`);
    throw fieldError("content", problems);
  }
  return references.flatMap(({ name }) => found.get(name) ?? []);
}

/**
 * Refuses content of partial `name` whose includes lead back to it (a 400 naming the cycle), and
 * returns the partials read on the way beyond the direct ones: the write checks them unchanged, so
 * two writes that would close a cycle between them cannot both succeed.
 * @example await refuseCycle(store, "header", [footer]) // throws when footer includes header
 */
export async function refuseCycle(
  store: PartialStore,
  name: string,
  includes: readonly StoredPartial[],
): Promise<StoredPartial[]> {
  const via = new Map<string, string>(includes.map((partial) => [partial.partial.name, name]));
  if (via.has(name)) throw cycleError(name, name, new Map());
  const walked: StoredPartial[] = [];
  let frontier: StoredPartial[] = [...includes];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const partial of frontier) {
      for (const included of partial.includes) {
        if (included === name) throw cycleError(name, partial.partial.name, via);
        if (!via.has(included)) {
          via.set(included, partial.partial.name);
          next.push(included);
        }
      }
    }
    if (next.length === 0) break;
    if (walked.length + next.length > MAX_WALKED_PARTIALS) {
      const reason = `includes partials more than ${MAX_WALKED_PARTIALS} deep or wide`;
      throw fieldError("content", reason);
    }
    const read = await store.getMany(next);
    frontier = next.flatMap((included) => read.get(included) ?? []);
    walked.push(...frontier);
  }
  return walked;
}

function cycleError(name: string, last: string, via: Map<string, string>): ValidationError {
  const path = [last, name];
  for (let at = last; at !== name; ) {
    at = via.get(at) ?? name;
    path.unshift(at);
  }
  const reason = `partial "${name}" would include itself: ${path.join(" → ")}`;
  return fieldError("content", reason);
}

/**
 * The 400 for a write whose transaction found an included partial deleted since it was read, or
 * undefined when no use failed. `usesAt`: the index of the first use's write; each use is two writes.
 */
export function lostInclude(
  error: ConditionFailedError,
  usesAt: number,
  includes: readonly StoredPartial[],
): ValidationError | undefined {
  const gone = includes.filter((_, i) => error.reasons[usesAt + 2 * i] === "ConditionalCheckFailed");
  if (gone.length === 0) return undefined;
  const problems = gone.map(({ partial }) => `partial "${partial.name}" does not exist`);
  return fieldError("content", problems);
}

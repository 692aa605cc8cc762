/**
 * @module db/db-errors — how SDK failures become the service's errors: a failed condition (with
 * the items it returned), a transaction conflict (retryable), and throttling, timeouts and lost
 * connections as 503s.
 */
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { ConflictError, UnavailableError } from "../errors.js";
import type { Item } from "./item.js";

/** A conditional write (or one condition of a transaction) did not hold. */
export class ConditionFailedError extends ConflictError {
  /** Per transaction item: the cancellation code (`ConditionalCheckFailed`, `None`, …). */
  readonly reasons: (string | undefined)[];
  constructor(reasons: (string | undefined)[], existing: unknown, cause: unknown) {
    super("Condition failed", { cause, existing });
    this.reasons = reasons;
  }
}

/** Two transactions touched the same item at once; the caller may retry. */
export class TransactionConflictError extends ConflictError {
  /** Per transaction item: `TransactionConflict` where another transaction held it (empty for a single-item write). */
  readonly reasons: (string | undefined)[];
  constructor(reasons: (string | undefined)[], cause: unknown) {
    super("Transaction conflict", { cause });
    this.reasons = reasons;
  }
}

const UNAVAILABLE_ERRORS = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "RequestLimitExceeded",
  "InternalServerError",
  "ServiceUnavailable",
  "ResourceNotFoundException",
  "TimeoutError",
  "AbortError",
]);
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);

/** The service's error for an SDK failure; `countFailedCall` counts the calls DynamoDB answered. */
export function translate(error: unknown, countFailedCall: () => void): unknown {
  const name = (error as { name?: string })?.name ?? "";
  const code = (error as { code?: string })?.code ?? "";
  if (name === "ConditionalCheckFailedException") {
    countFailedCall();
    return new ConditionFailedError(["ConditionalCheckFailed"], plainItem((error as { Item?: unknown }).Item), error);
  }
  if (name === "TransactionCanceledException") {
    countFailedCall();
    const reasons = ((error as { CancellationReasons?: { Code?: string; Item?: unknown }[] }).CancellationReasons ??
      []) as { Code?: string; Item?: unknown }[];
    const codes = reasons.map((reason) => reason.Code);
    if (codes.includes("ConditionalCheckFailed")) {
      return new ConditionFailedError(
        codes,
        reasons.map((reason) => plainItem(reason.Item)),
        error,
      );
    }
    if (codes.some((c) => c === "ThrottlingError" || c === "ProvisionedThroughputExceeded")) {
      return new UnavailableError("Database is throttling", { cause: error });
    }
    return new TransactionConflictError(codes, error);
  }
  if (name === "TransactionConflictException") {
    countFailedCall();
    return new TransactionConflictError([], error);
  }
  if (UNAVAILABLE_ERRORS.has(name) || UNAVAILABLE_CODES.has(code) || isNetworkError(error)) {
    return new UnavailableError("Database unavailable", { cause: error });
  }
  return error;
}

/** An item a failed condition returned (in DynamoDB's wire form) as plain values, like every other read. */
function plainItem(item: unknown): Item | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  return unmarshall(item as Parameters<typeof unmarshall>[0]) as Item;
}

function isNetworkError(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause;
  return typeof cause?.code === "string" && UNAVAILABLE_CODES.has(cause.code);
}

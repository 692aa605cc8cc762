/** @module signals/respond — the answer to a stored signal, shared by `POST /api/signals` and the webhook receivers. */
import { FIRST_ETAG, itemResponse } from "../http/respond.js";
import type { IngestResult } from "./signal-service.js";

/**
 * The receivers' and `POST /api/signals`' answer, named after its primary resource, the signal
 * (written once, never changed: docs/api.md#concurrency-and-idempotency): 201 for a new signal with its
 * `Location` and `ETag`, 200 for a duplicate webhook delivery with the stored signal's `ETag`.
 */
export function ingestResponse(c: Parameters<typeof itemResponse>[0], result: IngestResult): Response {
  if (result.duplicate) return itemResponse(c, result, { status: 200, etag: FIRST_ETAG });
  c.header("Location", `/api/signals/${result.signal.id}`);
  return itemResponse(c, result, { status: 201, etag: FIRST_ETAG });
}

/** @module signals/respond — the answer to a stored signal, shared by `POST /api/signals` and the webhook receivers. */
import { itemResponse } from "../http/respond.js";
import type { IngestResult } from "./signal-service.js";

/** The receivers' and `POST /api/signals`' answer: 201 for a new signal, 200 for a duplicate webhook delivery. */
export function ingestResponse(c: Parameters<typeof itemResponse>[0], result: IngestResult): Response {
  return itemResponse(c, result, { status: result.duplicate ? 200 : 201 });
}

/**
 * @module access/api — the `access` family's routes (docs/security.md): API keys and the audit log, each declared once:
 * guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, TEXT } from "../openapi/declare.js";
import { createKeyBody, listAuditQuery, listKeysQuery } from "./schemas.js";

const KEY_PARAM = TEXT ? "Key id (`key_…`)" : "";

export const accessApi = {
  "POST /api/keys": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    idempotent: false,
    body: createKeyBody,
    success: { status: 201, item: "CreatedKey" },
    doc: TEXT && {
      summary: "Make an API key",
      description:
        "A key of its own for a person, a tool or an agent fleet, holding `scopes` (`read`, `write`, `dispatch`, " +
        "`admin`) and, with `projectIds`, narrowed to those projects. `key` is shown in this answer only " +
        "(`Cache-Control: no-store`); Kaizen keeps its SHA-256 alone. Does not take `Idempotency-Key`: a replay would " +
        "show the key again.",
      success: "The key, with its text this once",
    },
  },
  "GET /api/keys": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    query: listKeysQuery,
    success: { list: "ApiKey" },
    doc: TEXT && {
      summary: "List API keys",
      description: "Oldest first, revoked ones included; never their text, only its first 12 characters (`prefix`).",
      success: "Every key",
    },
  },
  "GET /api/keys/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    success: { item: "ApiKey" },
    doc: TEXT && { summary: "Get an API key", params: { id: KEY_PARAM }, success: "The key, without its text" },
  },
  "DELETE /api/keys/:id": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    ifMatch: true,
    success: { item: "ApiKey" },
    doc: TEXT && {
      summary: "Revoke an API key",
      description:
        "Refused at once on the instance that revoked it and everywhere within 30 s. A key revoked already keeps its " +
        'first revocation. Its `ETag` is `"1"`, `"2"` once revoked.',
      params: { id: KEY_PARAM },
      success: "The key, revoked",
    },
  },
  "GET /api/me": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    success: { item: "Caller" },
    doc: TEXT && {
      summary: "Who this key is",
      description:
        "The caller the request's key names: `kind` (`root`, `key`), its id and name, the scopes it holds and the " +
        "projects it is narrowed to (null: every project). A console or tool reads it to offer only what the key may do.",
      success: "The caller",
    },
  },
  "GET /api/audit": {
    auth: "bearer",
    scope: "admin",
    reach: "global",
    query: listAuditQuery,
    success: { list: "AuditRecord" },
    doc: TEXT && {
      summary: "List the audit log",
      description:
        "Newest first: every request under /api/ that changed something (written in the change's own transaction), " +
        "every 401 and 403, and Kaizen's own actions (`actor.kind` `automation`). Filters: `actorId` (a key's id, " +
        "`root`, a dispatch's id, `kaizen`), `targetId`, `status`, `since`. Records are kept 90 days.",
      success: "A page of records",
    },
  },
} satisfies Declarations;

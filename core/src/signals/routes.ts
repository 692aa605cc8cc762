/** @module signals/routes — the `signals` family: manual signals and the signal reads. */
import type { FamilyModule } from "../http/app.js";
import { readJsonBody } from "../http/body.js";
import { itemResponse, listResponse } from "../http/respond.js";
import { parseWith } from "../http/validation.js";
import { signalService } from "../services.js";
import { ingestResponse } from "./respond.js";
import { manualFingerprint } from "./rules.js";
import { issueSignalsQuery, listSignalsQuery, manualSignalBody } from "./schemas.js";

export const signalFamily: FamilyModule<"signals"> = (deps) => {
  const signals = signalService(deps);
  return {
    "GET /api/signals": async (c) => {
      const query = parseWith(listSignalsQuery(), c.req.query(), "query");
      const { signals: page, total } = await signals.listSignals(query);
      return listResponse(c, page, total, query);
    },
    "POST /api/signals": async (c) => {
      const input = parseWith(manualSignalBody(), await readJsonBody(c), "body");
      const result = await signals.ingest({
        source: input.source,
        type: input.type,
        severity: input.severity,
        title: input.title,
        fingerprint: manualFingerprint(input.source, input.type, input.fingerprint),
        manual: true,
        projectId: input.projectId ?? null,
        deliveryId: null,
        headers: {},
        payloadText: JSON.stringify(input.payload ?? {}),
      });
      return ingestResponse(c, result);
    },
    "GET /api/signals/:id": async (c) => itemResponse(c, await signals.getSignal(c.req.param("id") ?? "")),
    "GET /api/issues/:id/signals": async (c) => {
      const query = parseWith(issueSignalsQuery(), c.req.query(), "query");
      const { signals: page, total } = await signals.listIssueSignals(c.req.param("id") ?? "", query);
      return listResponse(c, page, total, query);
    },
  };
};

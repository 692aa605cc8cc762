/** @module signals/routes — the `signals` family's handlers (routes in ./api.ts): manual signals and the signal reads. */
import { type AppDeps, familyModule } from "../http/app.js";
import { type ReachLookups, reachOfRequest } from "../http/reach.js";
import { FIRST_ETAG, itemResponse, listResponse, storedResponse } from "../http/respond.js";
import { issueMerge, issueProject, signalProject, signalService } from "../services.js";
import { signalApi } from "./api.js";
import { ingestResponse } from "./respond.js";
import { manualFingerprint } from "./rules.js";

/** Where what the signal routes reach belongs, for a key narrowed to projects (http/reach): a signal, and the issues a merge names. */
const signalReaches = (deps: AppDeps): ReachLookups => ({ issue: issueProject(deps), signal: signalProject(deps) });

export const signalFamily = familyModule(signalApi, signalReaches, (deps) => {
  const signals = signalService(deps);
  return {
    "GET /api/signals": async (c, { query }) => {
      const { signals: page, total } = await signals.listSignals(query, reachOfRequest(c).within);
      return listResponse(c, page, total, query);
    },
    "POST /api/signals": async (c, { body: input }) => {
      reachOfRequest(c).requireProject(input.projectId);
      const result = await signals.ingest({
        source: input.source,
        type: input.type,
        severity: input.severity,
        title: input.title,
        fingerprint: manualFingerprint(input.source, input.type, input.fingerprint),
        manual: true,
        projectId: input.projectId ?? null,
        sourceKey: null,
        deliveryId: null,
        headers: {},
        payloadText: JSON.stringify(input.payload ?? {}),
      });
      return ingestResponse(c, result);
    },
    "GET /api/signals/:id": async (c) =>
      itemResponse(c, await signals.getSignal(c.req.param("id") ?? ""), { etag: FIRST_ETAG }),
    "POST /api/issues/:id/merge": async (c, { body }) => {
      await reachOfRequest(c).require("issue", body.intoId);
      const stayed = await issueMerge(deps).merge(c.req.param("id") ?? "", body.intoId);
      return storedResponse(c, stayed.issue, stayed.version);
    },
    "GET /api/issues/:id/signals": async (c, { query }) => {
      const { signals: page, total } = await signals.listIssueSignals(c.req.param("id") ?? "", query);
      return listResponse(c, page, total, query);
    },
  };
});

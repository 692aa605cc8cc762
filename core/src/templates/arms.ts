/**
 * @module templates/arms — which arm of an experiment an issue is in (docs/api.md#experiments): decided by a
 * hash of the experiment and the issue, so an issue claimed again (a retry, an expired lease) stays
 * in its arm, every instance agrees without asking anyone, and each experiment splits issues anew.
 */
import { createHash } from "node:crypto";
import type { ExperimentArm } from "./keys.js";

/**
 * `candidate` for about `trafficPercent` % of issues, `control` for the rest.
 * @example armOf({ id: "exp_…", trafficPercent: 20 }, "iss_…") // "control" (4 issues in 5)
 */
export function armOf(experiment: { id: string; trafficPercent: number }, issueId: string): ExperimentArm {
  const digest = createHash("sha256").update(`${experiment.id}\u0000${issueId}`).digest();
  // 2^32 is not a multiple of 10,000: the bias is under 1 in 400,000.
  const bucket = digest.readUInt32BE(0) % 10_000;
  return bucket < experiment.trafficPercent * 100 ? "candidate" : "control";
}

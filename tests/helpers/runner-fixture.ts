/** A hosted runner as the API answers it (docs/api.md#hosted-runners), for tests that need one without a table. */
import type { Runner } from "../../core/src/runners/schemas.js";

export const RUNNER_ID = "run_01J2ZQ5K8Y3M4N6P7R9S0T1V2W";

/**
 * An active GitHub Actions runner on `acme/app`, up to 2 at once, taking every issue, none running,
 * with `fields` over it.
 * @example runnerFixture({ failures: 3, retryAfter: "2026-11-20T09:00:00.000Z" })
 */
export function runnerFixture(fields: Partial<Runner> = {}): Runner {
  return {
    id: RUNNER_ID,
    name: "ci",
    kind: "github_actions",
    repository: "acme/app",
    eventType: "kaizen-dispatch",
    concurrency: 2,
    filters: { projectId: null, types: null },
    agent: "ci",
    active: true,
    githubTokenConfigured: true,
    lastError: null,
    lastErrorAt: null,
    failures: 0,
    retryAfter: null,
    disabledReason: null,
    activeDispatches: 0,
    createdAt: "2026-11-20T08:30:00.000Z",
    updatedAt: "2026-11-20T08:30:00.000Z",
    ...fields,
  };
}

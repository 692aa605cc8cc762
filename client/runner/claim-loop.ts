/**
 * @module client/runner/claim-loop — `kaizen run`'s claims: N slots, each claiming the next issue
 * with the key and working it with the command until the queue is empty (`--once`) or the runner is
 * stopped; an empty queue is asked again after a wait that doubles up to a ceiling.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { IssueType } from "../../core/src/issues/issue-values.js";
import { claimStopped, KaizenApiError, type KaizenClient, type Schema, stoppedReason } from "../client.js";
import { type Assignment, type DispatchEnd, type RunSettings, workDispatch } from "./dispatch-run.js";

/** What a claim asks for (docs/api.md#dispatch). */
export interface ClaimFilters {
  agent: string;
  projectId?: string | undefined;
  types?: IssueType[] | undefined;
  leaseSeconds?: number | undefined;
}

/** What the claim loop works with. */
export interface ClaimLoopDeps {
  url: string;
  /** A client with the key, for claims. */
  keyClient: KaizenClient;
  /** A client with a dispatch's token. */
  tokenClient(token: string): KaizenClient;
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  settings: RunSettings;
  log(line: string): void;
}

/** What the loop did, once it stops. */
export interface ClaimLoopSummary {
  ends: DispatchEnd[];
}

/**
 * A claim's answer as the command is given it: the prompt's text, or, when no template matched, the
 * issue's own title and description.
 * @example assignmentOf(claim).identifier // "KZN-7"
 */
export function assignmentOf(claim: Schema<"ClaimResult">): Assignment {
  const { dispatch, issue, prompt } = claim;
  const text = prompt?.text ?? `${issue.identifier}: ${issue.title}\n\n${issue.description ?? ""}`.trimEnd();
  return {
    dispatchId: dispatch.id,
    token: dispatch.token,
    identifier: issue.identifier,
    prompt: text,
    leaseSeconds: dispatch.leaseSeconds,
  };
}

/**
 * Runs `concurrency` slots until each finds nothing to claim (`once`) or `shutdown` aborts; an API
 * error other than "try later" stops every slot (their dispatches released) and is thrown.
 * @example await runClaimLoop({ agent: "ci" }, { concurrency: 2, once: true }, deps, controller.signal)
 */
export async function runClaimLoop(
  filters: ClaimFilters,
  options: { concurrency: number; once: boolean },
  deps: ClaimLoopDeps,
  shutdown: AbortSignal,
): Promise<ClaimLoopSummary> {
  const stop = new AbortController();
  const onShutdown = () => stop.abort();
  shutdown.addEventListener("abort", onShutdown, { once: true });
  if (shutdown.aborted) stop.abort();
  const ends: DispatchEnd[] = [];
  let failure: unknown;
  let saidEmpty = false;
  const slot = async () => {
    let wait = deps.settings.pollMs;
    while (!stop.signal.aborted) {
      let claim: Awaited<ReturnType<typeof claimNext>>;
      try {
        claim = await claimNext(deps.keyClient, filters);
      } catch (error) {
        const later = laterOf(error, options.once);
        if (later === undefined) {
          failure ??= error;
          stop.abort();
          return;
        }
        await pause(later, stop.signal);
        continue;
      }
      if (!claim.taken) {
        if (options.once) {
          // Said once, by the first slot to find the queue empty.
          if (!saidEmpty) deps.log(claim.stopped ? stoppedReason(claim.stopped) : "Nothing left to claim.");
          saidEmpty = true;
          return;
        }
        await pause(wait, stop.signal);
        wait = Math.min(wait * 2, deps.settings.maxPollMs);
        continue;
      }
      wait = deps.settings.pollMs;
      const { taken } = claim;
      deps.log(`Claimed ${taken.issue.identifier}: ${taken.issue.title} (${taken.dispatch.id})`);
      const assignment = assignmentOf(taken);
      const end = await workDispatch(
        assignment,
        { ...deps, client: deps.tokenClient(assignment.token) },
        stop.signal,
      ).catch((error: unknown) => {
        failure ??= error;
        stop.abort();
        return undefined;
      });
      if (end) ends.push(end);
      if (end?.kind === "unstartable") {
        failure ??= new Error(`${end.reason} (${assignment.dispatchId} was released)`);
        stop.abort();
        return;
      }
      if (end?.kind === "released") {
        deps.log(
          `[${assignment.identifier}] released ${assignment.dispatchId}${end.error ? ` (failed: ${end.error})` : ""}`,
        );
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, slot));
  } finally {
    shutdown.removeEventListener("abort", onShutdown);
  }
  if (failure !== undefined) throw failure;
  return { ends };
}

/** The next claim; none when nothing is eligible, with the reason a 204 gave when it gave one. */
async function claimNext(
  client: KaizenClient,
  filters: ClaimFilters,
): Promise<{ taken: Schema<"ClaimResult"> } | { taken?: undefined; stopped: string | null }> {
  const { data, response } = await client.POST("/api/dispatch/claim", {
    body: {
      agent: filters.agent,
      ...(filters.projectId ? { projectId: filters.projectId } : {}),
      ...(filters.types ? { types: filters.types } : {}),
      ...(filters.leaseSeconds ? { leaseSeconds: filters.leaseSeconds } : {}),
    },
  });
  if (response.status === 204 || !data) return { stopped: claimStopped(response) };
  return { taken: data.data };
}

/**
 * How long to wait before claiming again after `error`: a 429's or 503's `Retry-After` (else 5 s),
 * and 5 s for a service out of reach unless `once`; undefined for an error that stops the runner.
 */
function laterOf(error: unknown, once: boolean): number | undefined {
  if (!(error instanceof KaizenApiError)) return undefined;
  if (error.status !== 429 && error.status !== 503 && (error.status !== 0 || once)) return undefined;
  return (error.retryAfterSeconds ?? 5) * 1000;
}

/** Waits `ms`, or less when `signal` aborts. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

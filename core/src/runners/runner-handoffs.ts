/**
 * @module runners/runner-handoffs — hosted runners' hand-offs (docs/api.md#hosted-runners): for each active
 * runner Kaizen keeps up to its concurrency of dispatches going, claimed through the claim line for
 * the runner's agent and handed to GitHub Actions as repository dispatches.
 *
 * {@link RunnerHandoffs.handleChanges} takes one batch of the table's change stream: a dispatch that
 * ended frees its place (and the runner is handed another), an issue that became eligible is handed
 * to the runners whose filters take it. {@link RunnerHandoffs.sweep} (at least once a minute) frees
 * what ended unseen, releases claims a dead hand-off left, and fills every runner up. A refused
 * hand-off releases its dispatch, records the error and a backoff, and after ten in a row switches
 * the runner off; each is recorded in the audit log as Kaizen's own.
 */
import { type Clock, machineClock } from "../clock.js";
import type { ChangeRecord } from "../db/changes.js";
import type { TransactItem } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ClaimConditionError } from "../dispatch/claim-line.js";
import { isOpen } from "../dispatch/dispatch-item.js";
import type { DispatchService } from "../dispatch/dispatch-service.js";
import type { ClaimResult } from "../dispatch/schemas.js";
import { ConflictError, NotFoundError, TooManyRequestsError, UnavailableError } from "../errors.js";
import { defaultLogger, loggedError } from "../http/logger.js";
import { BLOCKED_ADDRESS, type OutboundGuard, publicOnlyGuard } from "../outbound-guard.js";
import { type HandOffResult, type RepositoryDispatch, sendRepositoryDispatch } from "./github-dispatch.js";
import {
  DISABLE_AFTER_REFUSALS,
  endedDispatch,
  hasRoom,
  newlyEligible,
  refusalBackoffMs,
  runnerChanged,
  STALE_CLAIM_MS,
  takes,
} from "./handoff-rules.js";
import type { RunnerStore, StoredRunner } from "./runner-store.js";
import type { Runner } from "./schemas.js";

/** How {@link RunnerHandoffs} reaches GitHub and tells the time. */
export interface RunnerHandoffOptions {
  /** GitHub's API base (`GITHUB_API_URL`). */
  githubApiUrl: string;
  /** The URL agents reach Kaizen at (`PUBLIC_BASE_URL`, else the API's own), sent as `kaizenUrl`. */
  kaizenUrl: string;
  /** Where hand-offs may go (docs/security.md#outbound-requests); public addresses only when omitted (the local server passes the open guard). */
  guard?: OutboundGuard;
  now?: Clock;
  /** How a repository dispatch is sent; {@link sendRepositoryDispatch} with {@link timeoutMs} when omitted. */
  send?: (dispatch: RepositoryDispatch) => Promise<HandOffResult>;
  /** How long GitHub has to answer; the documented 10 s when omitted (tests of the cut shorten it). */
  timeoutMs?: number;
}

/** How Kaizen's own actions reach the audit log (access/audit-store `prepare` of an `automation` record). */
export interface AutomationRecords {
  prepare(action: string, targetId: string, at: Date): TransactItem;
}

type Dispatches = Pick<DispatchService, "claim" | "release" | "getDispatch" | "expireEnded">;

/**
 * How long an instance that found no runner reads none on the change stream (most deployments have
 * none, and every batch ending a dispatch or making an issue eligible would otherwise read them):
 * a runner made meanwhile is filled by the sweep, within a minute, or at once by a batch that sees it made.
 */
export const NO_RUNNERS_KEPT_MS = 30_000;
type Outcome = "handed" | "refused" | "none";

export class RunnerHandoffs {
  private readonly now: Clock;
  private readonly send: (dispatch: RepositoryDispatch) => Promise<HandOffResult>;
  private readonly guard: OutboundGuard;
  /** Until when (epoch ms) this instance takes it that there is no runner ({@link NO_RUNNERS_KEPT_MS}). */
  private noRunnersUntil = 0;

  constructor(
    private readonly store: RunnerStore,
    private readonly dispatches: Dispatches,
    private readonly audit: AutomationRecords,
    private readonly options: RunnerHandoffOptions,
  ) {
    this.now = options.now ?? machineClock;
    this.send = options.send ?? ((dispatch) => sendRepositoryDispatch(dispatch, options.timeoutMs));
    this.guard = options.guard ?? publicOnlyGuard();
  }

  /**
   * One batch of the change stream: frees the places of dispatches that ended, then hands each runner
   * concerned as many dispatches as places were freed and issues it takes became eligible (within its
   * room). Never throws: what fails here the sweep makes up for.
   */
  async handleChanges(changes: readonly ChangeRecord[]): Promise<void> {
    const ended = changes.flatMap((change) => endedDispatch(change) ?? []);
    const eligible = changes.flatMap((change) => newlyEligible(change) ?? []);
    if (changes.some(runnerChanged)) this.noRunnersUntil = 0;
    if (ended.length === 0 && eligible.length === 0) return;
    if (this.now().getTime() < this.noRunnersUntil) return;
    try {
      const runners = await this.store.all();
      this.keepNoRunners(runners);
      const wanted = new Map<string, number>();
      const want = (id: string) => wanted.set(id, (wanted.get(id) ?? 0) + 1);
      for (const dispatchId of ended) {
        const holder = runners.find(({ handOffs }) => handOffs.some((handOff) => handOff.dispatchId === dispatchId));
        if (holder && (await this.store.free(holder.runner.id, dispatchId))) want(holder.runner.id);
      }
      for (const issue of eligible) for (const { runner } of runners) if (takes(runner, issue)) want(runner.id);
      await Promise.all([...wanted].map(([id, most]) => this.guarded(id, () => this.fill(id, most))));
    } catch (error) {
      defaultLogger.warn("runner hand-offs deferred to the sweep", { error: loggedError(error) });
    }
  }

  /** Remembers for {@link NO_RUNNERS_KEPT_MS} that there is no runner; forgets it as soon as there is one. */
  private keepNoRunners(runners: readonly StoredRunner[]): void {
    this.noRunnersUntil = runners.length === 0 ? this.now().getTime() + NO_RUNNERS_KEPT_MS : 0;
  }

  /**
   * Every runner: expires leases that ran out, frees the places of its dispatches that ended,
   * releases a dispatch claimed over a minute ago that GitHub never took (its hand-off died), then
   * fills it up. Answers how many dispatches it handed over.
   */
  async sweep(): Promise<number> {
    const runners = await this.store.all();
    this.keepNoRunners(runners);
    if (runners.length === 0) return 0;
    // Leases that ran out end as the next claim would end them, so their places are freed now.
    await this.dispatches.expireEnded(this.now());
    let handed = 0;
    // Runners at once: one whose GitHub hangs for its 10 s holds up no other (at most 20 of them).
    await Promise.all(
      runners.map((stored) =>
        this.guarded(stored.runner.id, async () => {
          await this.repair(stored);
          handed += await this.fill(stored.runner.id, Number.POSITIVE_INFINITY);
        }),
      ),
    );
    return handed;
  }

  /** Hands runner `id` up to `most` dispatches, one after another, while it has room and the queue has issues. */
  private async fill(id: string, most: number): Promise<number> {
    let handed = 0;
    while (handed < most) {
      const stored = await this.store.get(id);
      if (!stored || !hasRoom(stored.runner, this.now())) break;
      if ((await this.handOff(stored.runner)) !== "handed") break;
      handed += 1;
    }
    return handed;
  }

  /** One hand-off: a claim for the runner's agent (its place taken in the claim's transaction), then GitHub. */
  private async handOff(runner: Runner): Promise<Outcome> {
    let claimed: ClaimResult;
    try {
      const result = await this.dispatches.claim({
        agent: runner.agent,
        ...(runner.filters.projectId ? { projectId: runner.filters.projectId } : {}),
        ...(runner.filters.types ? { types: runner.filters.types } : {}),
        alongside: (dispatchId, at) => [
          ...this.store.prepareTake(runner, dispatchId, at),
          this.audit.prepare(`runner.claimed ${dispatchId}`, runner.id, at),
        ],
      });
      if (!result || "stopped" in result) return "none";
      claimed = result;
    } catch (error) {
      // No room after all (another hand-off took it, the runner changed), or the project's limits hold it back.
      if (error instanceof ClaimConditionError || error instanceof TooManyRequestsError) return "none";
      if (error instanceof UnavailableError) return "none";
      throw error;
    }
    const { dispatch, issue } = claimed;
    const result = await this.post(runner, {
      dispatchId: dispatch.id,
      issue: issue.identifier,
      token: dispatch.token,
      kaizenUrl: this.options.kaizenUrl,
    });
    const now = this.now();
    if (result.ok) {
      await this.store.markHanded(runner.id, dispatch.id, now);
      await this.store.recordSuccess(runner, now);
      return "handed";
    }
    await this.refused(runner.id, dispatch.id, result.error ?? "refused", now);
    return "refused";
  }

  private async post(runner: Runner, payload: RepositoryDispatch["payload"]): Promise<HandOffResult> {
    if ((await this.guard.refusal(this.options.githubApiUrl)) !== null) {
      return { ok: false, status: null, error: BLOCKED_ADDRESS };
    }
    const githubToken = await this.store.githubTokenOf(runner.id);
    if (githubToken === undefined) return { ok: false, status: null, error: "no GitHub token stored" };
    return this.send({
      githubApiUrl: this.options.githubApiUrl,
      repository: runner.repository,
      eventType: runner.eventType,
      githubToken,
      payload,
    });
  }

  /**
   * A refused hand-off: the refusal recorded first (its backoff holds back the hand-off the release
   * would otherwise start), then the dispatch released, its issue back in the queue, and its place freed.
   */
  private async refused(runnerId: string, dispatchId: string, error: string, now: Date): Promise<void> {
    await retryRaces(async () => {
      const current = await this.store.get(runnerId);
      if (!current) return;
      const refusals = current.runner.failures + 1;
      const off = refusals >= DISABLE_AFTER_REFUSALS && current.runner.active;
      const disabledReason = off
        ? `Switched off after ${DISABLE_AFTER_REFUSALS} refused hand-offs in a row; the last: ${error}`
        : null;
      await this.store.recordRefusal(
        current,
        { lastError: error, at: now, retryAfter: new Date(now.getTime() + refusalBackoffMs(refusals)), disabledReason },
        [
          this.audit.prepare(`runner.handoff_refused ${dispatchId}: ${error}`, runnerId, now),
          ...(off ? [this.audit.prepare(`runner.disabled: ${disabledReason}`, runnerId, now)] : []),
        ],
      );
    });
    await this.release(dispatchId);
    await this.store.free(runnerId, dispatchId);
  }

  /** Frees the places of `stored`'s dispatches that ended, and releases those a dead hand-off left claimed. */
  private async repair(stored: StoredRunner): Promise<void> {
    const now = this.now().getTime();
    for (const handOff of stored.handOffs) {
      const found = await this.dispatches.getDispatch(handOff.dispatchId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (found && isOpen(found.dispatch.status)) {
        if (handOff.state !== "claimed" || Date.parse(handOff.at) + STALE_CLAIM_MS > now) continue;
        await this.release(handOff.dispatchId);
      }
      await this.store.free(stored.runner.id, handOff.dispatchId);
    }
  }

  /** Releases a dispatch, its issue back in the queue; nothing when it ended meanwhile. */
  private async release(dispatchId: string): Promise<void> {
    try {
      await this.dispatches.release(dispatchId);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }

  /** Runs `work` for runner `id`, logging what fails (never its token: no error here carries it). */
  private async guarded(id: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      defaultLogger.warn("runner hand-off failed", { runnerId: id, error: loggedError(error) });
    }
  }
}

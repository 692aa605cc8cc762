/**
 * @module dispatch/dispatch-progress — what happens while a dispatch is open (docs/api.md#dispatch): its
 * agent's activities and heartbeats (docs/api.md#activities), a person's messages
 * (docs/api.md#questions-and-answers) and plan decisions (docs/api.md#plan-approval). Each is one
 * transaction at the version read, after ./dispatch-endings.ts says the dispatch is still open (an
 * ended lease expires on the spot) and within its budget (one past it is stopped). Time comes from
 * an injected clock.
 */
import type { Db } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError } from "../errors.js";
import type { DispatchEndings } from "./dispatch-endings.js";
import type { StoredDispatch, VersionedDispatch } from "./dispatch-item.js";
import { agentActivityStep, heartbeatStep, resumeStep, sameUsage } from "./dispatch-steps.js";
import type { Dispatches } from "./dispatch-store.js";
import { newActivityId } from "./keys.js";
import type { Activity, ActivityInput, HeartbeatInput, MessageInput } from "./schemas.js";

export class DispatchProgress {
  constructor(
    private readonly db: Db,
    private readonly dispatches: Pick<Dispatches, "store">,
    /** Whether a dispatch is still open and within its budget, ending it when it is not. */
    private readonly endings: Pick<DispatchEndings, "openDispatch" | "withinBudget">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Appends an activity of its agent to an open dispatch (docs/api.md#activities), as its next
   * sequence, with what it does to the dispatch (./dispatch-steps.ts: a heartbeat, a question or a
   * plan that makes it wait) and its running usage, in one transaction at the version read:
   * activities posted at once take turns (a lost race reads again), so their sequences have no gaps
   * or repeats. 409 once the dispatch ended or its lease ran out, and when the usage it reports
   * passes its budget (Kaizen stops it then).
   */
  async activity(id: string, input: ActivityInput, read?: StoredDispatch): Promise<Activity> {
    return retryRaces(async (attempt) => {
      const now = this.now();
      const current = await this.endings.openDispatch(id, now, attempt === 1 ? read : undefined);
      const usage = await this.endings.withinBudget(current, input.usage, now);
      const activity = this.activityOf(current, now, { type: input.type, body: input.body, data: input.data ?? null });
      const step = agentActivityStep(current.dispatch, input.type, now);
      const { writes } = this.dispatches.store.prepareStep(current, {
        ...step,
        ...(sameUsage(usage, current.dispatch.usage) ? {} : { usage }),
        activity,
        leaseRunningAt: now.toISOString(),
      });
      await this.db.transactWrite(writes);
      return activity;
    });
  }

  /**
   * Extends an active lease by its length from now, keeping the running usage it reports; on a
   * waiting dispatch the lease is paused, so only the usage is kept. 409 once the dispatch ended or
   * its lease ran out, and when its usage passes its budget.
   */
  async heartbeat(id: string, input: HeartbeatInput = {}, read?: StoredDispatch): Promise<VersionedDispatch> {
    return retryRaces(async (attempt) => {
      const now = this.now();
      const current = await this.endings.openDispatch(id, now, attempt === 1 ? read : undefined);
      const usage = await this.endings.withinBudget(current, input.usage, now);
      const step = {
        ...heartbeatStep(current.dispatch, now),
        ...(sameUsage(usage, current.dispatch.usage) ? {} : { usage }),
      };
      if (Object.keys(step).length === 0) return { dispatch: current.dispatch, version: current.version };
      const { dispatch, version, writes } = this.dispatches.store.prepareStep(current, {
        ...step,
        leaseRunningAt: now.toISOString(),
      });
      await this.db.transactWrite(writes);
      return { dispatch, version };
    });
  }

  /**
   * A person's message to the agent (docs/api.md#questions-and-answers): an activity of type `message`; a
   * dispatch waiting for input becomes active with a fresh lease. 409 once it ended.
   */
  async message(id: string, input: MessageInput): Promise<Activity> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.endings.openDispatch(id, now);
      const activity = this.personActivity(current, now, input.body, null);
      const step = current.dispatch.waitingFor === "input" ? resumeStep(current.dispatch, now) : {};
      const { writes } = this.dispatches.store.prepareStep(current, {
        ...step,
        activity,
        leaseRunningAt: now.toISOString(),
      });
      await this.db.transactWrite(writes);
      return activity;
    });
  }

  /**
   * A person answers a dispatch waiting for approval of its plan (docs/api.md#plan-approval):
   * approved, it works on (active, a fresh lease) and may complete; rejected, it works on with the
   * feedback as a message and must post a new plan. Either answer is a `message` activity whose
   * `data.decision` says which. 409 when it does not wait for approval.
   */
  async decidePlan(
    id: string,
    decision: "approved" | "rejected",
    words: string | undefined,
  ): Promise<VersionedDispatch & { activity: Activity }> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.endings.openDispatch(id, now);
      if (current.dispatch.waitingFor !== "approval") {
        throw new ConflictError(`Dispatch ${id} is not waiting for approval`);
      }
      const body = words ?? (decision === "approved" ? "Plan approved." : "Plan rejected.");
      const activity = this.personActivity(current, now, body, { decision });
      const { dispatch, version, writes } = this.dispatches.store.prepareStep(current, {
        ...resumeStep(current.dispatch, now),
        planApproved: decision === "approved",
        activity,
        leaseRunningAt: now.toISOString(),
      });
      await this.db.transactWrite(writes);
      return { dispatch, activity, version };
    });
  }

  /** An activity of `current`'s at `now`, as its next sequence. */
  private activityOf(
    current: StoredDispatch,
    now: Date,
    said: Pick<Activity, "type" | "body" | "data">,
    author: Pick<Activity, "authorType" | "authorName"> = { authorType: "agent", authorName: current.dispatch.agent },
  ): Activity {
    return {
      id: newActivityId(now.getTime()),
      dispatchId: current.dispatch.id,
      issueId: current.dispatch.issueId,
      sequence: current.activityCount + 1,
      ...said,
      ...author,
      createdAt: now.toISOString(),
    };
  }

  /** A person's `message` to `current`'s agent. */
  private personActivity(current: StoredDispatch, now: Date, body: string, data: Activity["data"]): Activity {
    return this.activityOf(current, now, { type: "message", body, data }, { authorType: "human", authorName: null });
  }
}

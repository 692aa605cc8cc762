/**
 * @module runners/runner-service — hosted runners (docs/api.md#hosted-runners): made with a GitHub token that
 * no answer shows, listed, read, changed at their version (the token replaced, a runner switched off
 * by Kaizen switched on again), deleted.
 */
import { fieldError, NotFoundError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import { type OutboundGuard, publicOnlyGuard } from "../outbound-guard.js";
import { newRunnerId } from "./keys.js";
import type { RunnerFields, RunnerStore, StoredRunner } from "./runner-store.js";
import { type CreateRunnerBody, DEFAULT_EVENT_TYPE, type PatchRunnerBody, RUNNER_ID, type Runner } from "./schemas.js";

/** What the service needs besides its store. */
export interface RunnerServiceOptions {
  /** Whether a project exists (a runner's `filters.projectId` must name one). */
  projectExists: (id: string) => Promise<boolean>;
  /** GitHub's API base (`GITHUB_API_URL`), checked against the guard when a runner is made or changed. */
  githubApiUrl: string;
  /** Where Kaizen's own requests may go (docs/security.md#outbound-requests); public addresses only when omitted. */
  guard?: OutboundGuard;
  now?: () => Date;
}

export class RunnerService {
  private readonly now: () => Date;
  private readonly guard: OutboundGuard;

  constructor(
    private readonly store: RunnerStore,
    private readonly options: RunnerServiceOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.guard = options.guard ?? publicOnlyGuard();
  }

  async create(input: CreateRunnerBody): Promise<StoredRunner> {
    await this.checkProject(input.filters?.projectId);
    await this.checkReachable();
    const { id, createdAt } = newRunnerId(this.now().getTime());
    const fields: RunnerFields = {
      id,
      name: input.name,
      kind: input.kind,
      repository: input.repository,
      eventType: input.eventType ?? DEFAULT_EVENT_TYPE,
      concurrency: input.concurrency ?? 1,
      filters: { projectId: input.filters?.projectId ?? null, types: input.filters?.types ?? null },
      agent: input.agent ?? input.name,
      active: input.active ?? true,
      lastError: null,
      lastErrorAt: null,
      failures: 0,
      retryAfter: null,
      disabledReason: null,
      createdAt,
      updatedAt: createdAt,
    };
    return this.store.create(fields, input.githubToken);
  }

  /** A page of the runners, oldest first. */
  async list(page: { offset: number; limit: number }): Promise<{ runners: Runner[]; total: number }> {
    const all = await this.store.all();
    return { runners: all.slice(page.offset, page.offset + page.limit).map(({ runner }) => runner), total: all.length };
  }

  async get(id: string): Promise<StoredRunner> {
    const found = RUNNER_ID.test(id) ? await this.store.get(id) : undefined;
    if (!found) throw new NotFoundError(`Runner ${id} not found`);
    return found;
  }

  /**
   * Changes the fields given. `active: true` on a runner Kaizen switched off starts its run of
   * refusals again from 0, with no backoff, and clears why it was switched off. The agent stays
   * what it was when only the name changes.
   */
  async update(id: string, changes: PatchRunnerBody, expected: ExpectedVersions | undefined): Promise<StoredRunner> {
    const current = await this.get(id);
    checkVersion(expected, current.version);
    if (changes.filters !== undefined) await this.checkProject(changes.filters.projectId);
    if (changes.repository !== undefined) await this.checkReachable();
    const { activeDispatches: _count, githubTokenConfigured: _configured, ...fields } = current.runner;
    const switchedOn = changes.active === true && !fields.active;
    const { githubToken, filters, ...rest } = changes;
    const updated: RunnerFields = {
      ...fields,
      ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
      ...(filters === undefined
        ? {}
        : { filters: { projectId: filters.projectId ?? null, types: filters.types ?? null } }),
      ...(switchedOn ? { failures: 0, retryAfter: null, disabledReason: null } : {}),
      updatedAt: this.now().toISOString(),
    };
    return this.store.replace(current, updated, githubToken);
  }

  async delete(id: string, expected: ExpectedVersions | undefined): Promise<void> {
    const current = await this.get(id);
    checkVersion(expected, current.version);
    await this.store.delete(current);
  }

  private async checkProject(projectId: string | null | undefined): Promise<void> {
    if (!projectId || (await this.options.projectExists(projectId))) return;
    const message = `project ${projectId} does not exist`;
    throw fieldError("filters.projectId", message);
  }

  /** A 400 while GitHub's API base is one Kaizen may not send to from here. */
  private async checkReachable(): Promise<void> {
    if ((await this.guard.refusal(this.options.githubApiUrl)) === null) return;
    const message = "GITHUB_API_URL must not resolve to a loopback, private, link-local or unique-local address";
    throw fieldError("repository", message);
  }
}

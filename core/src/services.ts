/**
 * @module services — the composition root: every store and service is built here, once per app,
 * from the app's deps, and receives its collaborators in its constructor. Each is one exported
 * function, so a family's bundle carries only the services its handlers ask for.
 */

import type { Hono } from "hono";
import { ApiKeyStore } from "./access/api-key-store.js";
import { AuditStore } from "./access/audit-store.js";
import { KeyCheck } from "./access/key-check.js";
import { KeyService } from "./access/key-service.js";
import { CatalogLookups } from "./catalog/catalog-lookups.js";
import { CatalogService } from "./catalog/catalog-service.js";
import { LabelStore } from "./catalog/label-store.js";
import { machineClock } from "./clock.js";
import { CommentService } from "./comments/comment-service.js";
import { CommentStore } from "./comments/comment-store.js";
import { apiBaseUrl } from "./config.js";
import { AgentsReport } from "./dashboard/agents-report.js";
import { DashboardService } from "./dashboard/dashboard-service.js";
import { ClaimLine } from "./dispatch/claim-line.js";
import { Claimers } from "./dispatch/claimers.js";
import { DispatchEndings } from "./dispatch/dispatch-endings.js";
import { tokenDispatchOf } from "./dispatch/dispatch-item.js";
import { DispatchProgress } from "./dispatch/dispatch-progress.js";
import { DispatchQueries } from "./dispatch/dispatch-queries.js";
import { DispatchService } from "./dispatch/dispatch-service.js";
import { DispatchStore } from "./dispatch/dispatch-store.js";
import { HumanReviews } from "./dispatch/human-reviews.js";
import { ProjectHolds } from "./dispatch/project-holds.js";
import { QueuePreview } from "./dispatch/queue-preview.js";
import { ReportedPrompts } from "./dispatch/reported-prompts.js";
import { dispatchTokenCheck, keyDispatchChecks } from "./dispatch/token.js";
import { DestinationService } from "./events/destination-service.js";
import { DestinationStore } from "./events/destination-store.js";
import { EventDeliveries, type EventDeliveryOptions } from "./events/event-deliveries.js";
import { EventDeliveryStore } from "./events/event-delivery-store.js";
import { type AppDeps, type AppEnv, createHttpApp, type FamilyModules } from "./http/app.js";
import { callerChecks } from "./http/caller-checks.js";
import { DispatchQueue } from "./issues/dispatch-queue.js";
import { IssueMoves } from "./issues/issue-moves.js";
import { IssueQueries } from "./issues/issue-queries.js";
import { IssueReads } from "./issues/issue-reads.js";
import { IssueService } from "./issues/issue-service.js";
import { IssueStore } from "./issues/issue-store.js";
import { PullRequestIndex } from "./issues/pull-request-index.js";
import { RelationService } from "./issues/relation-service.js";
import { RelationStore } from "./issues/relation-store.js";
import { ReviewLoad } from "./issues/review-load.js";
import { SignalLinks } from "./issues/signal-links.js";
import { VerificationSweep } from "./issues/verification-sweep.js";
import { VerificationWatch } from "./issues/verification-watch.js";
import { ClaimPrompts } from "./prompts/claim-prompts.js";
import { ImprovementTasks } from "./prompts/improvement-tasks.js";
import { PROMPT_ID } from "./prompts/keys.js";
import { PromptService } from "./prompts/prompt-service.js";
import { PromptStore } from "./prompts/prompt-store.js";
import { ReviewLists } from "./prompts/review-lists.js";
import { ReviewService } from "./prompts/review-service.js";
import { ReviewStore } from "./prompts/review-store.js";
import { type RunnerHandoffOptions, RunnerHandoffs } from "./runners/runner-handoffs.js";
import { RunnerService } from "./runners/runner-service.js";
import { RunnerStore } from "./runners/runner-store.js";
import { IssueMerge } from "./signals/issue-merge.js";
import { CodeHostReviews } from "./signals/review-loop.js";
import { SignalIngest } from "./signals/signal-ingest.js";
import { SignalQueries } from "./signals/signal-queries.js";
import { SignalReads } from "./signals/signal-reads.js";
import { SignalService } from "./signals/signal-service.js";
import { SignalStore } from "./signals/signal-store.js";
import { WebhookDeliveryClaims } from "./signals/webhook-delivery-claims.js";
import { AgentStats } from "./stats/agent-stats.js";
import { UsageStats } from "./stats/usage-stats.js";
import { DefaultTemplates } from "./templates/default-templates.js";
import { ExperimentEndings } from "./templates/experiment-endings.js";
import { ExperimentService } from "./templates/experiment-service.js";
import { ExperimentStore } from "./templates/experiment-store.js";
import { PartialService } from "./templates/partial-service.js";
import { PartialStore } from "./templates/partial-store.js";
import { PromptContextBuilder } from "./templates/prompt-context-builder.js";
import { PromptRenderer } from "./templates/prompt-renderer.js";
import { TemplateReads } from "./templates/template-reads.js";
import { TemplateSeeding } from "./templates/template-seeding.js";
import { TemplateService } from "./templates/template-service.js";
import { TemplateStore } from "./templates/template-store.js";

/** The services of one app, built on first use. */
const builtFor = new WeakMap<DbDeps, Map<string, unknown>>();

/** `build()` once per deps: every family of one app shares its services (and their in-process state). */
function once<T>(deps: DbDeps, name: string, build: () => T): T {
  let built = builtFor.get(deps);
  if (!built) {
    built = new Map();
    builtFor.set(deps, built);
  }
  if (!built.has(name)) built.set(name, build());
  return built.get(name) as T;
}

/** What the stores and most services need: the database and the clock. */
type DbDeps = Pick<AppDeps, "db" | "clock">;

/** What the outbound events' side needs besides: how a retry that is due wakes a sweep (deployed; events-lambda.ts). */
type EventDeps = DbDeps & Pick<AppDeps, "outboundGuard"> & { wake?: (at: Date) => Promise<void> };

export const clockOf = (deps: DbDeps) => deps.clock ?? machineClock;

export const dispatchQueue = (deps: DbDeps) => once(deps, "dispatchQueue", () => new DispatchQueue(deps.db));
export const issueStore = (deps: DbDeps) =>
  once(deps, "issueStore", () => new IssueStore(deps.db, dispatchQueue(deps)));
/** Issue reads alone, for what never writes an issue (./issues/issue-reads.ts). */
export const issueReads = (deps: DbDeps) => once(deps, "issueReads", () => new IssueReads(deps.db));
export const issueQueries = (deps: DbDeps) =>
  once(deps, "issueQueries", () => new IssueQueries(deps.db, issueStore(deps)));
export const templateStore = (deps: DbDeps) => once(deps, "templateStore", () => new TemplateStore(deps.db));
/** Template reads alone, for what never writes a template (./templates/template-reads.ts). */
export const templateReads = (deps: DbDeps) => once(deps, "templateReads", () => new TemplateReads(deps.db));
export const partialStore = (deps: DbDeps) => once(deps, "partialStore", () => new PartialStore(deps.db));
export const partialService = (deps: AppDeps) =>
  once(deps, "partials", () => new PartialService(partialStore(deps), deps.config.serviceApiKey, clockOf(deps)));
export const dispatchStore = (deps: DbDeps) => once(deps, "dispatchStore", () => new DispatchStore(deps.db));
export const dispatchQueries = (deps: DbDeps) => once(deps, "dispatchQueries", () => new DispatchQueries(deps.db));
/** A dispatch's writes, its reads and the claims under way, as the dispatch services take them. */
export const dispatches = (deps: DbDeps) =>
  once(deps, "dispatches", () => ({
    store: dispatchStore(deps),
    queries: dispatchQueries(deps),
    claimers: new Claimers(deps.db),
  }));
export const signalStore = (deps: DbDeps) => once(deps, "signalStore", () => new SignalStore(deps.db));
export const signalQueries = (deps: DbDeps) => once(deps, "signalQueries", () => new SignalQueries(deps.db));
/** One signal's read alone: what a prompt's context and a key's reach need, without the listings. */
export const signalReads = (deps: DbDeps) => once(deps, "signalReads", () => new SignalReads(deps.db));
export const promptStore = (deps: DbDeps) => once(deps, "promptStore", () => new PromptStore(deps.db));
export const usageStats = (deps: DbDeps) => once(deps, "usageStats", () => new UsageStats(deps.db));
export const agentsReport = (deps: DbDeps) =>
  once(
    deps,
    "agentsReport",
    () => new AgentsReport(new AgentStats(deps.db), usageStats(deps), dispatchQueries(deps), clockOf(deps)),
  );

export const catalogLookups = (deps: DbDeps) =>
  once(deps, "catalogLookups", () => new CatalogLookups(deps.db, deps.clock));
/** Makes labels: the catalog's own store, for what needs a label of its own (improvement tasks). */
export const labelStore = (deps: DbDeps) => once(deps, "labelStore", () => new LabelStore(deps.db));
export const catalogService = (deps: DbDeps) =>
  once(
    deps,
    "catalog",
    () =>
      new CatalogService(
        deps.db,
        catalogLookups(deps),
        issueQueries(deps),
        issueStore(deps),
        usageStats(deps),
        deps.clock,
      ),
  );
export const issueMoves = (deps: DbDeps) =>
  once(
    deps,
    "issueMoves",
    () =>
      new IssueMoves(issueStore(deps), dispatchStore(deps), {
        prepare: (action, targetId, at) => auditStore(deps).prepare(auditStore(deps).automation(action, targetId, at)),
      }),
  );
export const pullRequestIndex = (deps: DbDeps) => once(deps, "pullRequestIndex", () => new PullRequestIndex(deps.db));
/** Ends the quiet watches of merged fixes: run by a schedule deployed, by the local stack locally. */
export const verificationSweep = (deps: DbDeps) =>
  once(
    deps,
    "verificationSweep",
    () =>
      new VerificationSweep(deps.db, issueStore(deps), issueMoves(deps), new VerificationWatch(deps.db), clockOf(deps)),
  );
export const signalLinks = (deps: DbDeps) =>
  once(deps, "signalLinks", () => new SignalLinks(deps.db, issueStore(deps), issueMoves(deps), dispatchQueue(deps)));
export const issueService = (deps: DbDeps) =>
  once(
    deps,
    "issues",
    () => new IssueService(issueStore(deps), issueQueries(deps), catalogLookups(deps), issueMoves(deps)),
  );
export const relationStore = (deps: DbDeps) => once(deps, "relationStore", () => new RelationStore(deps.db));
export const relationService = (deps: DbDeps) =>
  once(deps, "relations", () => new RelationService(relationStore(deps), issueService(deps), issueStore(deps)));
export const commentStore = (deps: DbDeps) => once(deps, "commentStore", () => new CommentStore(deps.db));
export const commentService = (deps: DbDeps) =>
  once(
    deps,
    "comments",
    () =>
      new CommentService(commentStore(deps), (ref) =>
        issueService(deps)
          .getIssue(ref)
          .then(({ issue }) => issue),
      ),
  );
/** People's code-host reviews of agents' pull requests, kept as reviews of the prompts behind them. */
export const humanReviews = (deps: DbDeps) =>
  once(
    deps,
    "humanReviews",
    () =>
      new HumanReviews(
        deps.db,
        new ReportedPrompts(pullRequestIndex(deps), dispatchStore(deps), promptStore(deps)),
        promptStore(deps),
        reviewStore(deps),
        templateStore(deps),
        improvementTasks(deps),
      ),
  );
/**
 * People's code-host reviews and merges of the pull requests of Kaizen's issues: the webhook
 * receivers' ingest only (a manual signal's source may not be `codehost`).
 */
export const codeHostReviews = (deps: DbDeps) =>
  once(
    deps,
    "codeHostReviews",
    () =>
      new CodeHostReviews({
        store: issueStore(deps),
        pullRequests: pullRequestIndex(deps),
        moves: issueMoves(deps),
        projects: catalogLookups(deps),
        humanReviews: humanReviews(deps),
      }),
  );
/**
 * Signals in. The webhook receivers' ingest is given the code-host review loop and the webhook
 * delivery reservations; the manual signals' ingest neither (a manual signal is never a webhook delivery).
 */
const signalIngest = (
  deps: DbDeps,
  name: string,
  receivers?: { reviews: CodeHostReviews; deliveryClaims: WebhookDeliveryClaims },
) =>
  once(
    deps,
    name,
    () =>
      new SignalIngest(
        deps.db,
        signalStore(deps),
        signalQueries(deps),
        {
          store: issueStore(deps),
          links: signalLinks(deps),
          projects: catalogLookups(deps),
          ...(receivers ? { reviews: receivers.reviews } : {}),
        },
        clockOf(deps),
        receivers?.deliveryClaims,
      ),
  );
/** Manual signals and the signal reads. */
export const signalService = (deps: DbDeps) =>
  once(
    deps,
    "signals",
    () => new SignalService(signalIngest(deps, "signalIngest"), signalQueries(deps), issueReads(deps)),
  );
/**
 * The webhook receivers' ingest, code-host reviews and merges among them: the receivers only store
 * signals, so their function carries none of the signal reads.
 */
export const webhookSignals = (deps: DbDeps) =>
  signalIngest(deps, "webhookSignals", {
    reviews: codeHostReviews(deps),
    deliveryClaims: once(
      deps,
      "webhookDeliveryClaims",
      () => new WebhookDeliveryClaims(signalStore(deps), clockOf(deps)),
    ),
  });
export const issueMerge = (deps: DbDeps) =>
  once(
    deps,
    "issueMerge",
    () =>
      new IssueMerge(
        {
          store: issueStore(deps),
          moves: issueMoves(deps),
          relations: relationStore(deps),
        },
        signalStore(deps),
        clockOf(deps),
      ),
  );
export const promptRenderer = (deps: AppDeps) =>
  once(deps, "promptRenderer", () => {
    const contexts = new PromptContextBuilder(
      issueReads(deps),
      signalReads(deps),
      catalogLookups(deps),
      apiBaseUrl(deps.config),
    );
    return new PromptRenderer(
      templateReads(deps),
      partialStore(deps),
      contexts,
      deps.config.serviceApiKey,
      clockOf(deps),
    );
  });
/** The default templates, seeded once per table: what renders prompts waits for them first. */
export const defaultTemplates = (deps: AppDeps) =>
  once(
    deps,
    "defaultTemplates",
    () =>
      new DefaultTemplates(
        templateStore(deps),
        partialStore(deps),
        new TemplateSeeding(deps.db),
        deps.config.serviceApiKey,
        clockOf(deps),
      ),
  );
export const experimentStore = (deps: DbDeps) => once(deps, "experimentStore", () => new ExperimentStore(deps.db));
export const experimentEndings = (deps: DbDeps) =>
  once(
    deps,
    "experimentEndings",
    () => new ExperimentEndings(templateStore(deps), experimentStore(deps), clockOf(deps)),
  );
export const experimentService = (deps: DbDeps) =>
  once(deps, "experiments", () => new ExperimentService(templateStore(deps), experimentStore(deps), clockOf(deps)));
export const templateService = (deps: AppDeps) =>
  once(
    deps,
    "templates",
    () =>
      new TemplateService(
        templateStore(deps),
        partialStore(deps),
        catalogLookups(deps),
        deps.config.serviceApiKey,
        experimentEndings(deps),
        clockOf(deps),
      ),
  );
export const promptService = (deps: AppDeps) => once(deps, "prompts", () => new PromptService(promptStore(deps)));
/** The prompt an issue gets at a claim, rendered and recorded: only what claims carries the renderer. */
export const claimPrompts = (deps: AppDeps) =>
  once(
    deps,
    "claimPrompts",
    () => new ClaimPrompts(promptStore(deps), promptRenderer(deps), defaultTemplates(deps), clockOf(deps)),
  );
/** The task that asks for a better version of a template: opened by rated reviews' folds and by people's code-host reviews. */
export const improvementTasks = (deps: DbDeps) =>
  once(
    deps,
    "improvementTasks",
    () =>
      new ImprovementTasks(
        templateStore(deps),
        { issues: issueStore(deps), labels: catalogLookups(deps), labelStore: labelStore(deps) },
        clockOf(deps),
      ),
  );
export const reviewStore = (deps: DbDeps) => once(deps, "reviewStore", () => new ReviewStore(deps.db));
export const reviewLists = (deps: AppDeps) => once(deps, "reviewLists", () => new ReviewLists(reviewStore(deps)));
export const reviewService = (deps: AppDeps) =>
  once(
    deps,
    "reviews",
    () =>
      new ReviewService(
        reviewStore(deps),
        { service: promptService(deps), store: promptStore(deps) },
        templateStore(deps),
        improvementTasks(deps),
        experimentEndings(deps),
        clockOf(deps),
      ),
  );
export const dispatchService = (deps: AppDeps) =>
  once(deps, "dispatch", () => {
    const issues = {
      store: issueStore(deps),
      queue: dispatchQueue(deps),
      moves: issueMoves(deps),
      pullRequests: pullRequestIndex(deps),
      comments: commentStore(deps),
    };
    const endings = new DispatchEndings(deps.db, dispatches(deps), issues, experimentEndings(deps), clockOf(deps));
    // The claim and the preview hold projects' issues back by one rule (docs/api.md#dispatch).
    const holds = new ProjectHolds(catalogLookups(deps), usageStats(deps), new ReviewLoad(deps.db));
    return new DispatchService(
      {
        line: new ClaimLine(deps.db, dispatches(deps), issues, claimPrompts(deps), holds, clockOf(deps)),
        preview: new QueuePreview(dispatches(deps), issues, holds, clockOf(deps)),
      },
      endings,
      new DispatchProgress(deps.db, dispatches(deps), endings, clockOf(deps)),
      dispatches(deps),
      issues,
      clockOf(deps),
    );
  });
export const dashboardService = (deps: DbDeps) =>
  once(
    deps,
    "dashboard",
    () =>
      new DashboardService(
        deps.db,
        signalQueries(deps),
        issueReads(deps),
        dispatchQueries(deps),
        templateReads(deps),
        clockOf(deps),
      ),
  );

/** The audit log (docs/security.md#audit-log): requests' records carried by their changes, and Kaizen's own. */
export const auditStore = (deps: DbDeps) => once(deps, "auditStore", () => new AuditStore(deps.db));
export const apiKeyStore = (deps: DbDeps) => once(deps, "apiKeyStore", () => new ApiKeyStore(deps.db));
/** What a presented API key grants, cached per instance (access/key-check.ts): one per app, so a revoke here forgets at once. */
export const keyCheck = (deps: DbDeps) => once(deps, "keyCheck", () => new KeyCheck(apiKeyStore(deps), clockOf(deps)));
export const keyService = (deps: DbDeps) =>
  once(
    deps,
    "keys",
    () =>
      new KeyService(
        apiKeyStore(deps),
        keyCheck(deps),
        async (ids) => {
          const found = await Promise.all(ids.map((id) => catalogLookups(deps).findProject(id)));
          return ids.filter((_, i) => !found[i]);
        },
        clockOf(deps),
      ),
  );
export const destinationStore = (deps: DbDeps) => once(deps, "destinationStore", () => new DestinationStore(deps.db));
export const eventDeliveryStore = (deps: DbDeps) =>
  once(deps, "eventDeliveryStore", () => new EventDeliveryStore(deps.db));
/**
 * Events from the change stream to their destinations: the stream's handler, the retry sweeper, manual
 * retries. One with options of its own (the local server's send timeout) is built apart.
 */
export const eventDeliveries = (deps: EventDeps, options: Pick<EventDeliveryOptions, "sendTimeoutMs"> = {}) => {
  const build = () =>
    new EventDeliveries(destinationStore(deps), eventDeliveryStore(deps), {
      now: clockOf(deps),
      ...(deps.wake ? { wake: deps.wake } : {}),
      ...(deps.outboundGuard ? { guard: deps.outboundGuard } : {}),
      ...options,
    });
  return options.sendTimeoutMs === undefined ? once(deps, "eventDeliveries", build) : build();
};
export const destinationService = (deps: EventDeps) =>
  once(
    deps,
    "destinations",
    () =>
      new DestinationService(
        destinationStore(deps),
        eventDeliveryStore(deps),
        eventDeliveries(deps),
        clockOf(deps),
        deps.outboundGuard,
      ),
  );

export const runnerStore = (deps: DbDeps) => once(deps, "runnerStore", () => new RunnerStore(deps.db));
export const runnerService = (deps: AppDeps) =>
  once(
    deps,
    "runners",
    () =>
      new RunnerService(runnerStore(deps), {
        projectExists: (id) => catalogLookups(deps).projectExists(id),
        githubApiUrl: deps.config.githubApiUrl,
        now: clockOf(deps),
        ...(deps.outboundGuard ? { guard: deps.outboundGuard } : {}),
      }),
  );
/**
 * Hosted runners' hand-offs (docs/api.md#hosted-runners), from the change stream and the sweep: what tests
 * change of how GitHub is reached comes in `options` (then a hand-off of their own is built).
 */
export const runnerHandoffs = (deps: AppDeps, options: Partial<RunnerHandoffOptions> = {}) => {
  const build = () =>
    new RunnerHandoffs(
      runnerStore(deps),
      dispatchService(deps),
      {
        prepare: (action, targetId, at) => auditStore(deps).prepare(auditStore(deps).automation(action, targetId, at)),
      },
      {
        githubApiUrl: deps.config.githubApiUrl,
        kaizenUrl: apiBaseUrl(deps.config),
        now: clockOf(deps),
        ...(deps.outboundGuard ? { guard: deps.outboundGuard } : {}),
        ...options,
      },
    );
  return Object.keys(options).length === 0 ? once(deps, "runnerHandoffs", build) : build();
};

/*
 * Where each kind of resource belongs, for a key narrowed to projects (http/reach): one read, two for
 * a dispatch, prompt or relation (its issue's). Each family names the kinds its routes reach
 * (`familyModule`'s `reaches`), so a function carries only those stores.
 */
export const issueProject = (deps: DbDeps) => async (ref: string) =>
  (await issueReads(deps).getByRef(ref))?.issue.projectId;
export const dispatchProject = (deps: DbDeps) => async (ref: string) => {
  const stored = await dispatchStore(deps).get(ref);
  return stored ? (stored.projectId ?? (await issueProject(deps)(stored.dispatch.issueId)) ?? null) : undefined;
};
export const signalProject = (deps: DbDeps) => async (ref: string) => (await signalReads(deps).get(ref))?.projectId;
export const promptProject = (deps: DbDeps) => async (ref: string) => {
  const prompt = await promptStore(deps).get(ref);
  return prompt ? ((await issueProject(deps)(prompt.issueId)) ?? null) : undefined;
};
export const relationProject = (deps: DbDeps) => async (ref: string) => {
  const relation = await relationStore(deps).get(ref);
  return relation ? ((await issueProject(deps)(relation.issueId)) ?? null) : undefined;
};

/*
 * Which dispatch works an issue or a prompt, for a `dispatch` key acting as the token of a dispatch it
 * claimed (http/auth `DispatchLookups`): one read, passed by the families whose routes take a token
 * on an issue or a prompt. Neither reads what is not the shape of its id.
 */
export const issueDispatch = (deps: DbDeps) => async (ref: string) =>
  (await issueReads(deps).getByRef(ref))?.activeDispatchId;
export const promptDispatch = (deps: DbDeps) => async (ref: string) =>
  PROMPT_ID.test(ref) ? (await promptStore(deps).get(ref))?.dispatchId : undefined;

/**
 * The app serving `families` over `deps`, with dispatch tokens checked by the dispatch domain
 * (the HTTP layer knows no store).
 * @example const app = createApp({ issues: issueFamily }, { config, db });
 */
export function createApp(families: FamilyModules, deps: AppDeps): Hono<AppEnv> {
  const lookup = (id: string) => tokenDispatchOf(deps.db, id, clockOf(deps)());
  const dispatchTokens = dispatchTokenCheck(lookup);
  const check = keyCheck(deps);
  const keys = { grantOf: (presented: string) => check.grantOf(presented), ...keyDispatchChecks(lookup) };
  return createHttpApp(families, deps, {
    callers: callerChecks(deps, { dispatchTokens, keys, audit: auditStore(deps) }),
  });
}

/**
 * The webhook receivers' app: their routes are verified by the providers' signatures, so it carries
 * no bearer check, API keys, dispatch tokens, audit trail or Idempotency-Key replay.
 * @example export const handler = receiverLambdaHandler({ webhooks: webhookFamily });
 */
export function createReceiverApp(families: Pick<FamilyModules, "webhooks">, deps: AppDeps): Hono<AppEnv> {
  return createHttpApp(families, deps);
}

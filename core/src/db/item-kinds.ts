/**
 * @module db/item-kinds — every kind of item the one table holds, listed once (docs/architecture.md#item-kinds).
 *
 * A kind is named once, here, and everything else follows from the name by rule:
 * - its key prefix is `<name>_1` (keys hold `$kaizen#<name>_1`; the stream reader's checkpoints,
 *   which predate the rule, keep the unversioned `stream`), built only by {@link keyPrefix};
 * - the `entity` attribute its items carry, when they carry one, is the name itself ({@link entityOf});
 * - a kind whose items share another kind's prefix (a *facet*: a version's reviews item sits beside
 *   the version under `templatever_1`) is named `<prefix name><facet>`: `templatever` + `reviews`;
 * - a listing (db/listing-index.ts) named `<listing>` has two kinds: its entries `<listing>list_1` and its
 *   counts `<listing>count_1`.
 *
 * Each kind has one keys module (where its keys are built) and one owner (the store, class or
 * function that writes its items: `<module under core/src>#<export>`); tests/unit/db/item-kinds.test.ts
 * holds the code to these.
 *
 * Converging old names. Stored keys never change. Six kinds were first written with an `entity`
 * that did not follow their prefix; new writes carry the name, and the old value stays readable as
 * the kind's legacy entity ({@link LEGACY_ENTITIES}): whatever picks items by `entity` (events
 * derivation, the deployed stream's filter in infra/events.ts) matches both ({@link entitiesOf}).
 *
 * The tables of kinds and listings are read by tests and docs; code reads only {@link keyPrefix},
 * {@link entityOf} and {@link entitiesOf}, so bundles do not carry the tables (their types do the checking).
 */

/** What the registry knows of one kind. */
export interface ItemKind {
  /** The stored prefix, `<name>_1`, or for a facet the prefix it shares. */
  prefix: string;
  /** For a kind whose items share another kind's prefix: what tells them apart (the name's rest). */
  facet?: string;
  /** Whether its items carry an `entity` attribute (those of the key-only kinds do not). */
  stamped: boolean;
  /** Where its keys are built, under core/src. */
  keys: string;
  /** What writes its items: `<module under core/src>#<export>`. */
  owner: string;
  /** What its items are, in a few words. */
  about: string;
}

export const ITEM_KINDS = {
  // catalog
  project: {
    prefix: "project_1",
    stamped: true,
    keys: "catalog/keys",
    owner: "catalog/label-store#PROJECT_KIND",
    about: "a project",
  },
  goal: {
    prefix: "goal_1",
    stamped: true,
    keys: "catalog/keys",
    owner: "catalog/label-store#GOAL_KIND",
    about: "a goal",
  },
  label: {
    prefix: "label_1",
    stamped: true,
    keys: "catalog/keys",
    owner: "catalog/label-store#LabelStore",
    about: "a label",
  },
  labelname: {
    prefix: "labelname_1",
    stamped: true,
    keys: "catalog/keys",
    owner: "catalog/label-store#LabelStore",
    about: "the claim on a label's folded name",
  },
  projectsource: {
    prefix: "projectsource_1",
    stamped: true,
    keys: "catalog/keys",
    owner: "catalog/source-store#SourceStore",
    about: "a project's claim on a source it owns, with the routing its signals need",
  },
  // issues
  issue: {
    prefix: "issue_1",
    stamped: true,
    keys: "issues/keys",
    owner: "issues/issue-item#issueItem",
    about: "an issue (gsi1: by number)",
  },
  issuesignal: {
    prefix: "issue_1",
    facet: "signal",
    stamped: true,
    keys: "issues/keys",
    owner: "issues/signal-grouping#pendingSignalWrite",
    about: "a grouped signal waiting to be folded into its issue",
  },
  pullrequest: {
    prefix: "pullrequest_1",
    stamped: false,
    keys: "issues/keys",
    owner: "issues/pull-request-index#PullRequestIndex",
    about: "the issue a pull request (repository and number) was completed for",
  },
  reviewload: {
    prefix: "reviewload_1",
    stamped: false,
    keys: "issues/keys",
    owner: "issues/review-load#ReviewLoad",
    about: "how many of a project's issues wait in review",
  },
  verifywatch: {
    prefix: "verifywatch_1",
    stamped: false,
    keys: "issues/keys",
    owner: "issues/verification-watch#verificationWatchChanges",
    about: "a merged fix watched until its window ends, by the window's end",
  },
  issuechild: {
    prefix: "issuechild_1",
    stamped: false,
    keys: "issues/keys",
    owner: "issues/issue-store#IssueStore",
    about: "a child's summary in its parent's partition",
  },
  issuerel: {
    prefix: "issuerel_1",
    stamped: false,
    keys: "issues/keys",
    owner: "issues/relation-store#RelationStore",
    about: "one end of a relation in its issue's partition",
  },
  counter: {
    prefix: "counter_1",
    stamped: false,
    keys: "issues/keys",
    owner: "issues/issue-store#IssueStore",
    about: "the last issue number taken",
  },
  relation: {
    prefix: "relation_1",
    stamped: false,
    keys: "issues/relation-keys",
    owner: "issues/relation-store#RelationStore",
    about: "a relation between two issues",
  },
  relpair: {
    prefix: "relpair_1",
    stamped: false,
    keys: "issues/relation-keys",
    owner: "issues/relation-store#RelationStore",
    about: "the claim that one fact relates a pair once",
  },
  comment: {
    prefix: "comment_1",
    stamped: true,
    keys: "comments/keys",
    owner: "comments/comment-store#CommentStore",
    about: "a comment",
  },
  // signals
  signal: {
    prefix: "signal_1",
    stamped: true,
    keys: "signals/keys",
    owner: "signals/signal-store#SignalStore",
    about: "a signal (payload inline when it fits)",
  },
  signalpayload: {
    prefix: "signalpayload_1",
    stamped: false,
    keys: "signals/keys",
    owner: "signals/signal-store#SignalStore",
    about: "one chunk of a signal's payload",
  },
  delivery: {
    prefix: "delivery_1",
    stamped: false,
    keys: "signals/keys",
    owner: "signals/signal-store#SignalStore",
    about: "a webhook delivery taken (reservation, then result)",
  },
  fingerprint: {
    prefix: "fingerprint_1",
    stamped: false,
    keys: "signals/keys",
    owner: "signals/signal-store#SignalStore",
    about: "the issue a fingerprint last opened",
  },
  signalsources: {
    prefix: "signalsources_1",
    stamped: true,
    keys: "signals/keys",
    owner: "signals/signal-store#SignalStore",
    about: "a manual source, registered",
  },
  // templates and experiments
  template: {
    prefix: "template_1",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/template-item#templateItem",
    about: "a template",
  },
  templatever: {
    prefix: "templatever_1",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/template-writes#versionWrites",
    about: "a template version",
  },
  templatevercount: {
    prefix: "templatever_1",
    facet: "count",
    stamped: false,
    keys: "templates/keys",
    owner: "templates/version-counts#versionOutcomeAdditions",
    about: "a version's spread counts",
  },
  templateverreviews: {
    prefix: "templatever_1",
    facet: "reviews",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/template-writes#versionWrites",
    about: "where a version's reviews stand",
  },
  version: {
    prefix: "version_1",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/template-writes#versionWrites",
    about: "a version id's template and number",
  },
  templateslug: {
    prefix: "templateslug_1",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/template-store#TemplateStore",
    about: "the claim on a template slug",
  },
  templateseed: {
    prefix: "templateseed_1",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/template-seeding#TemplateSeeding",
    about: "a default template, seeded",
  },
  templateseedlock: {
    prefix: "templateseed_1",
    facet: "lock",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/template-seeding#TemplateSeeding",
    about: "held while one instance seeds the defaults",
  },
  experiment: {
    prefix: "experiment_1",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/experiment-store#ExperimentStore",
    about: "an experiment",
  },
  experimentcount: {
    prefix: "experiment_1",
    facet: "count",
    stamped: false,
    keys: "templates/keys",
    owner: "templates/experiment-counts#armOutcomeAdditions",
    about: "an experiment arm's spread counts",
  },
  partial: {
    prefix: "partial_1",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/partial-store#PartialStore",
    about: "a partial: named content that versions and other partials include",
  },
  partialuse: {
    prefix: "partial_1",
    facet: "use",
    stamped: true,
    keys: "templates/keys",
    owner: "templates/partial-store#PartialStore",
    about: "a version or partial that includes a partial, beside it",
  },
  // prompts and reviews
  prompt: {
    prefix: "prompt_1",
    stamped: true,
    keys: "prompts/keys",
    owner: "prompts/prompt-store#PromptStore",
    about: "a rendered prompt",
  },
  reviewseq: {
    prefix: "reviewseq_1",
    stamped: false,
    keys: "prompts/keys",
    owner: "prompts/review-store#ReviewStore",
    about: "the last review number of a version",
  },
  reviewslot: {
    prefix: "reviewslot_1",
    stamped: true,
    keys: "prompts/keys",
    owner: "prompts/review-store#ReviewStore",
    about: "what one review number brings its version's score",
  },
  // dispatch
  dispatch: {
    prefix: "dispatch_1",
    stamped: true,
    keys: "dispatch/keys",
    owner: "dispatch/dispatch-store#DispatchStore",
    about: "a dispatch",
  },
  activity: {
    prefix: "activity_1",
    stamped: true,
    keys: "dispatch/keys",
    owner: "dispatch/dispatch-store#DispatchStore",
    about: "one activity of a dispatch (what its agent thought, did, answered), by its sequence",
  },
  lease: {
    prefix: "lease_1",
    stamped: false,
    keys: "dispatch/keys",
    owner: "dispatch/dispatch-store#DispatchStore",
    about: "when an active dispatch's lease ends",
  },
  claimers: {
    prefix: "claimers_1",
    stamped: false,
    keys: "dispatch/keys",
    owner: "dispatch/claimers#Claimers",
    about: "a claim under way (deleted by its own transaction)",
  },
  agentload: {
    prefix: "agentload_1",
    stamped: false,
    keys: "dispatch/keys",
    owner: "dispatch/dispatch-store#DispatchStore",
    about: "an agent's active dispatches in a project",
  },
  // outbound events
  destination: {
    prefix: "destination_1",
    stamped: true,
    keys: "events/keys",
    owner: "events/destination-store#DestinationStore",
    about: "an event destination",
  },
  destinations: {
    prefix: "destinations_1",
    stamped: false,
    keys: "events/keys",
    owner: "events/destination-store#DestinationStore",
    about: "how many destinations there are",
  },
  eventdelivery: {
    prefix: "eventdelivery_1",
    stamped: true,
    keys: "events/keys",
    owner: "events/event-delivery-store#EventDeliveryStore",
    about: "one event's delivery to one destination",
  },
  eventdue: {
    prefix: "eventdue_1",
    stamped: false,
    keys: "events/keys",
    owner: "events/event-delivery-store#EventDeliveryStore",
    about: "gsi1 partition of the deliveries due (no item of its own)",
  },
  // hosted runners
  runner: {
    prefix: "runner_1",
    stamped: true,
    keys: "runners/keys",
    owner: "runners/runner-store#RunnerStore",
    about: "a hosted runner (never its GitHub token)",
  },
  runners: {
    prefix: "runners_1",
    stamped: false,
    keys: "runners/keys",
    owner: "runners/runner-store#RunnerStore",
    about: "how many hosted runners there are",
  },
  runnertoken: {
    prefix: "runnertoken_1",
    stamped: false,
    keys: "runners/keys",
    owner: "runners/runner-store#RunnerStore",
    about: "a hosted runner's GitHub token, read by its hand-offs only",
  },
  runnerload: {
    prefix: "runnerload_1",
    stamped: false,
    keys: "runners/keys",
    owner: "runners/runner-store#RunnerStore",
    about: "a hosted runner's dispatches that have not ended, held to its concurrency",
  },
  // shared
  idempotency: {
    prefix: "idempotency_1",
    stamped: true,
    keys: "http/idempotency-store",
    owner: "http/idempotency-store#IdempotencyStore",
    about: "a request's Idempotency-Key record",
  },
  stats: {
    prefix: "stats_1",
    stamped: false,
    keys: "stats/counts",
    owner: "stats/counts#countChange",
    about: "the dashboard's spread counts",
  },
  usage: {
    prefix: "usage_1",
    stamped: false,
    keys: "stats/usage-stats",
    owner: "stats/usage-stats#usageAdditions",
    about: "reported costs of one UTC day",
  },
  agentday: {
    prefix: "agentday_1",
    stamped: false,
    keys: "stats/agent-stats",
    owner: "stats/agent-stats#agentCountAdditions",
    about: "what each agent's dispatches came to in one UTC day",
  },
  health: {
    prefix: "health_1",
    stamped: false,
    keys: "service/health",
    owner: "service/health#databaseCheck",
    about: "the key the health check reads (never written)",
  },
  stream: {
    prefix: "stream",
    stamped: false,
    keys: "db/stream-reader",
    owner: "db/stream-reader#startStreamReader",
    about: "a stream shard's checkpoint",
  },
  // access
  apikey: {
    prefix: "apikey_1",
    stamped: true,
    keys: "access/keys",
    owner: "access/api-key-store#ApiKeyStore",
    about: "an API key: its name, scopes, projects, prefix, expiry and revocation (never the key)",
  },
  apikeydigest: {
    prefix: "apikeydigest_1",
    stamped: false,
    keys: "access/keys",
    owner: "access/api-key-store#ApiKeyStore",
    about: "an API key by the SHA-256 of its text: what a check needs to grant it, in one read",
  },
  audit: {
    prefix: "audit_1",
    stamped: true,
    keys: "access/audit-keys",
    owner: "access/audit-store#AuditStore",
    about: "one record of the audit log, in its UTC day's partition (gone after 90 days)",
  },
} as const satisfies Record<string, ItemKind>;

/** Every listing (db/listing-index.ts), with where its scheme is declared and which store keeps its entries and counts. */
export const LISTINGS = {
  issue: { keys: "issues/keys", owner: "issues/issue-store#IssueStore" },
  issuepriority: { keys: "issues/keys", owner: "issues/issue-store#IssueStore" },
  issueupdated: { keys: "issues/keys", owner: "issues/issue-store#IssueStore" },
  queue: { keys: "issues/dispatch-queue", owner: "issues/dispatch-queue#DispatchQueue" },
  comment: { keys: "comments/keys", owner: "comments/comment-store#CommentStore" },
  signal: { keys: "signals/keys", owner: "signals/signal-store#SignalStore" },
  template: { keys: "templates/keys", owner: "templates/template-store#TemplateStore" },
  partial: { keys: "templates/keys", owner: "templates/partial-store#PartialStore" },
  prompt: { keys: "prompts/keys", owner: "prompts/prompt-store#PromptStore" },
  review: { keys: "prompts/keys", owner: "prompts/review-store#ReviewStore" },
  dispatch: { keys: "dispatch/keys", owner: "dispatch/dispatch-store#DispatchStore" },
  eventdelivery: { keys: "events/keys", owner: "events/event-delivery-store#EventDeliveryStore" },
  project: { keys: "catalog/keys", owner: "catalog/record-store#RecordStore" },
  goal: { keys: "catalog/keys", owner: "catalog/record-store#RecordStore" },
  label: { keys: "catalog/keys", owner: "catalog/record-store#RecordStore" },
} as const satisfies Record<string, { keys: string; owner: string }>;

/**
 * The `entity` values items of a kind were written with before the kind's name was its entity; new
 * writes never carry them, readers keep accepting them.
 */
export const LEGACY_ENTITIES = {
  templatever: ["templateversion"],
  templateverreviews: ["templatereviews"],
  version: ["versionpointer"],
  destination: ["eventdestination"],
  signalsources: ["signalsource"],
  templateseedlock: ["templateseeding"],
} as const satisfies Partial<Record<KindName, readonly string[]>>;

export type KindName = keyof typeof ITEM_KINDS;
export type ListingName = keyof typeof LISTINGS;
/** Kinds with a prefix of their own (not facets). */
export type PrefixedKind = { [K in KindName]: (typeof ITEM_KINDS)[K] extends { facet: string } ? never : K }[KindName];
/** Kinds whose items carry `entity`. */
export type StampedKind = { [K in KindName]: (typeof ITEM_KINDS)[K] extends { stamped: true } ? K : never }[KindName];

/**
 * `$kaizen#<prefix>`: how every key of the kind (or of the listing's entries or counts) begins.
 * @example keyPrefix("issue") // "$kaizen#issue_1"
 */
export function keyPrefix(kind: PrefixedKind | `${ListingName}list` | `${ListingName}count`): string {
  return kind === "stream" ? "$kaizen#stream" : `$kaizen#${kind}_1`;
}

/**
 * Kinds written on a request's way, before or beside the change it asks for and harmless if that
 * change then fails (docs/security.md#audit-log): its idempotency record, a taken issue or review
 * number and a review's slot, a webhook delivery's reservation, a manual source's registration, a
 * claim's place in line, the seeding of default templates, the change stream's checkpoints, and
 * the audit log itself. A request's record rides with its change, never with these.
 */
const UNRECORDED: readonly PrefixedKind[] = [
  "idempotency",
  "counter",
  "reviewseq",
  "reviewslot",
  "delivery",
  "signalsources",
  "claimers",
  "templateseed",
  "stream",
  "audit",
];

/**
 * Whether a write to partition `pk` changes something a request is recorded for in the audit log.
 * @example isRecordedChange("$kaizen#issue_1#iss_01…") // true; isRecordedChange("$kaizen#idempotency_1#…") // false
 */
export function isRecordedChange(pk: string): boolean {
  return !UNRECORDED.some((kind) => {
    const prefix = kind === "stream" ? "$kaizen#stream" : `$kaizen#${kind}_1`;
    return pk === prefix || pk.startsWith(`${prefix}#`);
  });
}

/** The `entity` new items of the kind carry: its name. */
export function entityOf<K extends StampedKind>(kind: K): K {
  return kind;
}

/** Every `entity` an item of the kind may carry: its name, then the legacy values it was written with. */
export function entitiesOf(kind: StampedKind): string[] {
  return [kind, ...((LEGACY_ENTITIES as Partial<Record<KindName, readonly string[]>>)[kind] ?? [])];
}

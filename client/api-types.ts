/**
 * @module client/api-types — the API's paths, operations and schemas as TypeScript types, generated
 * from docs/openapi.json by openapi-typescript. Do not edit: run `npm run openapi`.
 */
export interface paths {
  "/": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Service information
     * @description Name, version and where the docs and the OpenAPI document are.
     */
    get: operations["get"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/llms.txt": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A guide for coding agents
     * @description Plain text in the llms.txt form: what Kaizen is, how an agent claims, reports, asks and completes, and links to this document and the reference page, all on this deployment's base URL (`PUBLIC_BASE_URL`, or the address the request came to).
     */
    get: operations["getLlmsTxt"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Health check
     * @description 503 with `status: degraded` and the failing check when the table cannot be reached.
     */
    get: operations["getHealth"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/openapi.json": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This OpenAPI document */
    get: operations["getApiOpenapiJson"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/docs": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Interactive API reference
     * @description An HTML page rendering this document; its scripts and styles are served by `/docs/assets/{file}`.
     */
    get: operations["getDocs"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/docs/assets/{file}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A script or style sheet of the reference page */
    get: operations["getDocsAssetsFile"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's overview
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getApp"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/issues": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's issue list
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppIssues"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/issues/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's page of one issue
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppIssuesId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/queue": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's queue
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppQueue"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/activity": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's activity chains
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppActivity"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/agents": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's agents
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppAgents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/prompts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's templates
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppPrompts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/prompts/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's page of one template
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppPromptsId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/providers": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's providers
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppProviders"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/projects": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's projects
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppProjects"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/projects/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's page of one project
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppProjectsId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/goals": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's goals
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppGoals"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/labels": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's labels
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppLabels"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/keys": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's API keys
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppKeys"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/audit": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The console's audit log
     * @description The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names.
     */
    get: operations["getAppAudit"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/app/assets/{file}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A script or style sheet of the web console */
    get: operations["getAppAssetsFile"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/providers": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The webhook providers and how to connect them
     * @description One entry per receiver: its URL, the variable of the secret that signs its deliveries and whether that secret is configured (never its value), the signature headers it reads, and the setup guide.
     */
    get: operations["getApiProviders"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/issues": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List issues */
    get: operations["getApiIssues"];
    put?: never;
    /** Create an issue */
    post: operations["postApiIssues"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/issues/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get an issue with its parent, children, relations and latest signals */
    get: operations["getApiIssuesId"];
    put?: never;
    post?: never;
    /** Delete an issue (soft delete) */
    delete: operations["deleteApiIssuesId"];
    options?: never;
    head?: never;
    /**
     * Update an issue
     * @description Partial update; status changes follow the transitions of docs/api.md#states-and-transitions (409 otherwise).
     */
    patch: operations["patchApiIssuesId"];
    trace?: never;
  };
  "/api/issues/{id}/comments": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List an issue's comments */
    get: operations["getApiIssuesIdComments"];
    put?: never;
    /**
     * Comment on an issue
     * @description Also allowed with the dispatch token of this issue's open dispatch, or with the `dispatch` key that claimed it.
     */
    post: operations["postApiIssuesIdComments"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/issues/{id}/relations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Relate two issues
     * @description A relation and its inverse are one fact; a cycle of `blocks` is a 409.
     */
    post: operations["postApiIssuesIdRelations"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/relations/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a relation */
    delete: operations["deleteApiRelationsId"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/projects": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List projects */
    get: operations["getApiProjects"];
    put?: never;
    /**
     * Create a project
     * @description `limits` (all `null`, no limit, by default): `maxActivePerAgent` (an integer 1..100: active dispatches one agent may hold of the project's issues), `dailyCostBudgetUsd` (a number > 0: US dollars its agents may report in a UTC day before claims of its issues stop), `maxInReview` (an integer 1..100: issues of the project waiting in review before claims of its issues stop) and `maxCostPerDispatchUsd` (a number > 0: US dollars one dispatch may report before Kaizen stops it). Sent, the object replaces the project's limits whole: a key left out is `null`; unknown keys are a 400. `autonomy.planApproval` (default false): agents post a plan and wait for a person's approval before they may complete.
     */
    post: operations["postApiProjects"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/projects/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a project with its issue counts by status and today's usage
     * @description `usage` sums what its dispatches (of issues in it when claimed) reported they cost today (UTC): the figure `limits.dailyCostBudgetUsd` is held against.
     */
    get: operations["getApiProjectsId"];
    put?: never;
    post?: never;
    /** Delete a project */
    delete: operations["deleteApiProjectsId"];
    options?: never;
    head?: never;
    /**
     * Update a project
     * @description `limits` (all `null`, no limit, by default): `maxActivePerAgent` (an integer 1..100: active dispatches one agent may hold of the project's issues), `dailyCostBudgetUsd` (a number > 0: US dollars its agents may report in a UTC day before claims of its issues stop), `maxInReview` (an integer 1..100: issues of the project waiting in review before claims of its issues stop) and `maxCostPerDispatchUsd` (a number > 0: US dollars one dispatch may report before Kaizen stops it). Sent, the object replaces the project's limits whole: a key left out is `null`; unknown keys are a 400. `autonomy.planApproval` (default false): agents post a plan and wait for a person's approval before they may complete.
     */
    patch: operations["patchApiProjectsId"];
    trace?: never;
  };
  "/api/goals": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List goals */
    get: operations["getApiGoals"];
    put?: never;
    /** Create a goal */
    post: operations["postApiGoals"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/goals/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a goal */
    get: operations["getApiGoalsId"];
    put?: never;
    post?: never;
    /** Delete a goal */
    delete: operations["deleteApiGoalsId"];
    options?: never;
    head?: never;
    /** Update a goal */
    patch: operations["patchApiGoalsId"];
    trace?: never;
  };
  "/api/labels": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List labels */
    get: operations["getApiLabels"];
    put?: never;
    /**
     * Create a label
     * @description Names are unique regardless of case (409).
     */
    post: operations["postApiLabels"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/labels/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete a label */
    delete: operations["deleteApiLabelsId"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/signals/codehost": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Code-host webhook receiver
     * @description Verified by `X-Codehost-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body with `CODEHOST_WEBHOOK_SECRET`. Event from `X-Codehost-Event` (+ body `action`), delivery id from `X-Codehost-Delivery`. GitHub's own headers are read the same way: `X-Hub-Signature-256`, `X-GitHub-Event`, `X-GitHub-Delivery`, `X-GitHub-Hook-ID` (the neutral name wins when both are sent; two signatures that differ are a 401). Takes `application/json` or `application/x-www-form-urlencoded` (`payload=<json>`).
     */
    post: operations["postApiSignalsCodehost"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/signals/errortracker": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Error-tracker webhook receiver
     * @description Verified by `X-Errortracker-Hook-Signature`: the lowercase hex HMAC-SHA256, with `ERRORTRACKER_CLIENT_SECRET`, of the body parsed and serialised again (`JSON.stringify`). Event from `X-Errortracker-Hook-Resource` (+ body `action`), delivery id from `Request-ID`. Sentry's own headers are read the same way: `Sentry-Hook-Signature`, `Sentry-Hook-Resource`, `Sentry-Hook-Timestamp` (the neutral name wins when both are sent; two signatures that differ are a 401).
     */
    post: operations["postApiSignalsErrortracker"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/signals/analytics": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Analytics webhook receiver
     * @description Verified by `X-Analytics-Secret`, equal to `ANALYTICS_WEBHOOK_SECRET` (PostHog's webhook destination sends the headers it is configured with; it signs nothing of its own). Delivery id from `X-Analytics-Delivery`, else the event's `uuid`, else the SHA-256 of the body.
     */
    post: operations["postApiSignalsAnalytics"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/signals": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List signals */
    get: operations["getApiSignals"];
    put?: never;
    /** Record a manual signal */
    post: operations["postApiSignals"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/signals/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a signal with its whole payload */
    get: operations["getApiSignalsId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/issues/{id}/signals": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List an issue's signals */
    get: operations["getApiIssuesIdSignals"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/issues/{id}/merge": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Merge a duplicate into the issue that stays
     * @description The issue is canceled with a `duplicate` relation to `intoId`, which takes its fingerprints, signals and priority (docs/api.md#merging-duplicates).
     */
    post: operations["postApiIssuesIdMerge"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/templates": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List templates */
    get: operations["getApiTemplates"];
    put?: never;
    /**
     * Create a template
     * @description `content` makes version 1, active at once. A template that does not compile is a 400.
     */
    post: operations["postApiTemplates"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/templates/preview/{issueId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Preview the prompt an issue would get
     * @description Which template would be chosen and the rendered text, without claiming anything.
     */
    get: operations["getApiTemplatesPreviewIssueId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/templates/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a template with its active version */
    get: operations["getApiTemplatesId"];
    put?: never;
    post?: never;
    /** Delete a template */
    delete: operations["deleteApiTemplatesId"];
    options?: never;
    head?: never;
    /** Update a template */
    patch: operations["patchApiTemplatesId"];
    trace?: never;
  };
  "/api/templates/{id}/versions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List a template's versions */
    get: operations["getApiTemplatesIdVersions"];
    put?: never;
    /** Add a draft version */
    post: operations["postApiTemplatesIdVersions"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/templates/{id}/versions/{versionId}/promote": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Make a version active
     * @description The previously active version is retired in the same transaction.
     */
    post: operations["postApiTemplatesIdVersionsVersionIdPromote"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/templates/{id}/reviews": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the reviews of a template's prompts */
    get: operations["getApiTemplatesIdReviews"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/templates/{id}/experiments": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a template's experiments
     * @description Newest first, each with its arms' figures now and its decision, if taken.
     */
    get: operations["getApiTemplatesIdExperiments"];
    put?: never;
    /**
     * Start an experiment
     * @description A draft version (`candidateVersionId`) takes `trafficPercent` % of the template's claims, chosen per issue, against the active version. When both arms have `minSamples` finished dispatches and the candidate is better on completion rate or review score (95 % intervals apart) and worse on neither, it is promoted (`autoPromote`) or marked `winner`; worse in the same sense, it is marked `loser`. 409 while another experiment runs, without an active version, or for a candidate that is not a draft.
     */
    post: operations["postApiTemplatesIdExperiments"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/templates/{id}/experiments/{experimentId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get an experiment */
    get: operations["getApiTemplatesIdExperimentsExperimentId"];
    put?: never;
    post?: never;
    /**
     * Stop an experiment
     * @description Ends a running experiment as `stopped` (its record and figures stay); the template's claims all get its active version again. 409 once it has ended. Its `ETag` is `"1"` while it runs, `"2"` once it ended.
     */
    delete: operations["deleteApiTemplatesIdExperimentsExperimentId"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/partials": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List partials
     * @description By name.
     */
    get: operations["getApiPartials"];
    put?: never;
    /**
     * Create a partial
     * @description Content a version includes with `{{> name}}`. Content that does not compile, or includes a partial that does not exist or would include itself, is a 400; a name taken is a 409.
     */
    post: operations["postApiPartials"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/partials/{name}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a partial */
    get: operations["getApiPartialsName"];
    put?: never;
    post?: never;
    /**
     * Delete a partial
     * @description A 409 names the active or draft versions (of live templates) and the partials that include it; retired versions do not hold it.
     */
    delete: operations["deleteApiPartialsName"];
    options?: never;
    head?: never;
    /**
     * Update a partial
     * @description `content` and `description`; the name is the partial's id and never changes. Prompts rendered from now on include the new content; prompts already rendered keep their text.
     */
    patch: operations["patchApiPartialsName"];
    trace?: never;
  };
  "/api/prompts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List prompts */
    get: operations["getApiPrompts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/prompts/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a prompt */
    get: operations["getApiPromptsId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/prompts/{id}/reviews": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List a prompt's reviews */
    get: operations["getApiPromptsIdReviews"];
    put?: never;
    /**
     * Review a prompt
     * @description Also allowed with the dispatch token of the dispatch this prompt was rendered for, or with the `dispatch` key that claimed it, while that dispatch is open.
     */
    post: operations["postApiPromptsIdReviews"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/claim": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Claim the highest-scoring eligible issue
     * @description Each issue is claimed by exactly one agent at a time. `dispatch.token` authorises heartbeat, complete, release, activities, comments on the issue and reviews of the prompt, and reading the dispatch, its issue and its prompt, until the dispatch ends; a `dispatch` key may do the same on the dispatches it claimed. With `Idempotency-Key`, a retry gets the same answer, the same dispatch and token, not a second issue. Projects' `limits` hold their issues back: an agent holding `limits.maxActivePerAgent` active dispatches of a project gets 429 (`Retry-After: 30`, a message naming the limit) when nothing else is eligible; a project whose agents reported `limits.dailyCostBudgetUsd` today (UTC) gets the 204 with `Kaizen-Claim-Stopped: daily-cost-budget`, and one with `limits.maxInReview` of its issues in review the 204 with `Kaizen-Claim-Stopped: review-capacity`. A claim filtered by such a project answers so at once; an unfiltered one takes the best issue of other projects first. The 429 comes before the budget's 204 when both apply. A `projectId` that names no project is a 400.
     */
    post: operations["postApiDispatchClaim"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/next": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Claim, for agents that can only GET
     * @description The claim of `POST /api/dispatch/claim`, its answers included. Projects' `limits` hold their issues back: an agent holding `limits.maxActivePerAgent` active dispatches of a project gets 429 (`Retry-After: 30`, a message naming the limit) when nothing else is eligible; a project whose agents reported `limits.dailyCostBudgetUsd` today (UTC) gets the 204 with `Kaizen-Claim-Stopped: daily-cost-budget`, and one with `limits.maxInReview` of its issues in review the 204 with `Kaizen-Claim-Stopped: review-capacity`. A claim filtered by such a project answers so at once; an unfiltered one takes the best issue of other projects first. The 429 comes before the budget's 204 when both apply. A `projectId` that names no project is a 400.
     */
    get: operations["getApiDispatchNext"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/queue": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Preview the claim order
     * @description Every queued issue in claim order, with its score now. An issue of a project whose claims stop now keeps its place with `heldBy` naming the stop (`review-capacity` or `daily-cost-budget`, as a claim's `Kaizen-Claim-Stopped` would): claims pass over it while it is held. The issues with `heldBy: null` are, in this order, the issues successive claims take. An agent's `limits.maxActivePerAgent` holds that agent only, so it marks nothing here. `total` counts held issues too. A `projectId` that names no project is a 400.
     */
    get: operations["getApiDispatchQueue"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List dispatches */
    get: operations["getApiDispatch"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a dispatch */
    get: operations["getApiDispatchId"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/heartbeat": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Extend a dispatch's lease
     * @description Extends an active dispatch's lease by its length from now. The body may be left out, or carry `usage`: the agent's running totals for the dispatch (a figure lower than one already reported is ignored); a cost that passes the dispatch's `costBudgetUsd` stops it (409 `Dispatch was stopped: <reason>`). On a `waiting` dispatch it answers 200 and the lease stays paused. 409 once the dispatch has ended or its lease ran out.
     */
    post: operations["postApiDispatchIdHeartbeat"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/activities": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What the agent said while it worked
     * @description A dispatch's activities, oldest first, paginated; `after=<sequence>` gives only later ones, for tailing (`total` counts those). Readable after the dispatch ended.
     */
    get: operations["getApiDispatchIdActivities"];
    put?: never;
    /**
     * Say what the agent is doing
     * @description Appends an activity (what the agent thought, did, answered, what went wrong, a question for a person, its plan) to an open dispatch as its next `sequence` (1, 2, … without gaps, whatever the posts at once); on an `active` dispatch it counts as a heartbeat. `elicitation` makes the dispatch `waiting` for `input`; `plan`, when its project's `autonomy.planApproval` was on at the claim, `waiting` for `approval`. A waiting dispatch's lease is paused; it expires only after 7 days of waiting. `usage` is the running total, as on a heartbeat. 409 once the dispatch has ended or its lease ran out.
     */
    post: operations["postApiDispatchIdActivities"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/complete": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Report a dispatch's outcome
     * @description Ends an open dispatch. With `result: done` on a dispatch whose plan needs approval, 409 `Plan approval required: post a plan activity and wait for approval` until its latest plan was approved. `usage` is the running total, as on a heartbeat: a cost that passes the dispatch's `costBudgetUsd` stops it instead (409).
     */
    post: operations["postApiDispatchIdComplete"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/messages": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Say something to an agent at work
     * @description A person's message, kept as an activity of type `message` (`authorType: human`) that the agent reads with the others. A dispatch `waiting` for `input` becomes `active` with a fresh lease. The dispatch's own token may not send one (403). 409 once the dispatch has ended.
     */
    post: operations["postApiDispatchIdMessages"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/approve": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Approve the plan an agent waits on
     * @description Answers a dispatch `waiting` for `approval`: it becomes `active` with a fresh lease, and may complete `done`. The answer is also a `message` activity (`data.decision: approved`, the `comment` as its body). The dispatch's own token may not approve (403). 409 when it does not wait for approval.
     */
    post: operations["postApiDispatchIdApprove"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/reject": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a plan back with feedback
     * @description Answers a dispatch `waiting` for `approval`: it becomes `active` with a fresh lease and the `feedback` as a `message` activity (`data.decision: rejected`); it must post a new plan before it may complete `done`. The dispatch's own token may not reject (403). 409 when it does not wait for approval.
     */
    post: operations["postApiDispatchIdReject"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/stop": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Stop an agent at work
     * @description A person stops an active dispatch: it becomes `stopped` with `stopReason`, and its issue moves to `then` (`todo` by default, `backlog` or `canceled`). Every later call with its token (heartbeat, activity, complete, release) answers 409 `Dispatch was stopped: <reason>`. The dispatch's own token may not stop it (403). 409 when the dispatch has already ended; of a stop and a completion at once, exactly one ends it.
     */
    post: operations["postApiDispatchIdStop"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dispatch/{id}/release": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Give an issue back to the queue */
    post: operations["postApiDispatchIdRelease"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/event-destinations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List event destinations
     * @description Oldest first; never their secrets.
     */
    get: operations["getApiEventDestinations"];
    put?: never;
    /**
     * Add an event destination
     * @description Kaizen POSTs each event of the types in `events` (`issue.created`, `issue.status_changed`, `dispatch.claimed`, `dispatch.completed`, `dispatch.failed`, `dispatch.expired`, `dispatch.waiting`, `dispatch.stopped`, `prompt.needs_attention`, `experiment.decided`, `issue.verified`, `issue.regressed`) to `url` (https; plain http only to localhost, 127.0.0.1 or [::1]), signed with the secret in this answer, which is shown this once, and again only to a replay of this request with its `Idempotency-Key`. At most 20 destinations (409 beyond).
     */
    post: operations["postApiEventDestinations"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/event-destinations/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get an event destination */
    get: operations["getApiEventDestinationsId"];
    put?: never;
    post?: never;
    /**
     * Delete an event destination
     * @description Its pending deliveries are not sent any more.
     */
    delete: operations["deleteApiEventDestinationsId"];
    options?: never;
    head?: never;
    /**
     * Change an event destination
     * @description Any of `url`, `events`, `description`, `active`. `active: true` on a destination Kaizen switched off after 100 failed attempts in a row turns it back on with its count of failures at 0.
     */
    patch: operations["patchApiEventDestinationsId"];
    trace?: never;
  };
  "/api/event-destinations/{id}/rotate-secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate an event destination's signing secret
     * @description A new secret, shown this once. For 24 h the old one signs too: `Kaizen-Signature-256` then carries both signatures, the new one first, comma-separated, so a receiver holding either accepts the events.
     */
    post: operations["postApiEventDestinationsIdRotateSecret"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/event-destinations/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an event destination's deliveries
     * @description Newest first, each with its attempts (when, the outcome, the HTTP status answered, how long it took, why it failed).
     */
    get: operations["getApiEventDestinationsIdDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/event-destinations/{id}/deliveries/{deliveryId}/retry": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a delivery again
     * @description One attempt now, whatever the delivery's status; the answer carries it. A success ends the delivery as `succeeded`; a failure leaves its schedule as it was. 409 while another attempt of it is under way.
     */
    post: operations["postApiEventDestinationsIdDeliveriesDeliveryIdRetry"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runners": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List hosted runners
     * @description Oldest first; never their GitHub tokens.
     */
    get: operations["getApiRunners"];
    put?: never;
    /**
     * Add a hosted runner
     * @description For each active runner Kaizen keeps up to `concurrency` dispatches going: it claims issues that match `filters` for `agent` (default: the runner's name) and hands each to GitHub Actions as a repository dispatch of `eventType` (default `kaizen-dispatch`) to `repository`, authorised by `githubToken`. The token is write-only: answers show `githubTokenConfigured`. At most 20 runners (409 beyond).
     */
    post: operations["postApiRunners"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/runners/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a hosted runner */
    get: operations["getApiRunnersId"];
    put?: never;
    post?: never;
    /**
     * Delete a hosted runner
     * @description Its token is deleted with it. Dispatches it handed over go on until their agents end them.
     */
    delete: operations["deleteApiRunnersId"];
    options?: never;
    head?: never;
    /**
     * Change a hosted runner
     * @description Any of `name`, `repository`, `eventType`, `concurrency`, `filters`, `agent`, `active`, `githubToken` (replaces the stored token). `active: true` on a runner Kaizen switched off after 10 refused hand-offs in a row turns it back on with its count of refusals at 0 and no backoff.
     */
    patch: operations["patchApiRunnersId"];
    trace?: never;
  };
  "/api/dashboard/stats": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What the engine is doing
     * @description Issues by status and type, signals by source (the last 24 h, the last 7 d, and each of the last 24 hours, oldest first), dispatches, queue depth, median todo→done time.
     */
    get: operations["getApiDashboardStats"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dashboard/activity": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The latest signal → issue → dispatch → outcome chains */
    get: operations["getApiDashboardActivity"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dashboard/prompts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Per template: active version, usage, review score, completion rate, outcomes
     * @description Each live template, newest first, with its active version's usage, review score, completion rate, outcomes (completed, merged, reworked, regressed, verified) and verified rate, and the experiment it runs.
     */
    get: operations["getApiDashboardPrompts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dashboard/agents": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Per agent: claims, how dispatches ended, what became of the work, cost
     * @description Every agent with a claim, an ended dispatch or an outcome in the last `days` UTC days (today included), most claims first: claims; dispatches completed, failed, released, stopped and expired; work merged, reworked (sent back by review), regressed and verified, with the verified rate; and the cost its dispatches reported. Each count falls on the day it happened; claims count the dispatches still at work too.
     */
    get: operations["getApiDashboardAgents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/dashboard/usage": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What agents reported their work cost, per day, agent and project
     * @description The usage sums (dispatches that reported usage, input and output tokens, US dollars) of the last `days` UTC days, today first, days without reports included: each day in all, per agent and per project (the issue's project when it was claimed), the costliest first. A dispatch counts on the UTC day it finished. One query per day.
     */
    get: operations["getApiDashboardUsage"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/keys": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List API keys
     * @description Oldest first, revoked ones included; never their text, only its first 12 characters (`prefix`).
     */
    get: operations["getApiKeys"];
    put?: never;
    /**
     * Make an API key
     * @description A key of its own for a person, a tool or an agent fleet, holding `scopes` (`read`, `write`, `dispatch`, `admin`) and, with `projectIds`, narrowed to those projects. `key` is shown in this answer only (`Cache-Control: no-store`); Kaizen keeps its SHA-256 alone. Does not take `Idempotency-Key`: a replay would show the key again.
     */
    post: operations["postApiKeys"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/keys/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get an API key */
    get: operations["getApiKeysId"];
    put?: never;
    post?: never;
    /**
     * Revoke an API key
     * @description Refused at once on the instance that revoked it and everywhere within 30 s. A key revoked already keeps its first revocation. Its `ETag` is `"1"`, `"2"` once revoked.
     */
    delete: operations["deleteApiKeysId"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/me": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who this key is
     * @description The caller the request's key names: `kind` (`root`, `key`), its id and name, the scopes it holds and the projects it is narrowed to (null: every project). A console or tool reads it to offer only what the key may do.
     */
    get: operations["getApiMe"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/audit": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the audit log
     * @description Newest first: every request under /api/ that changed something (written in the change's own transaction), every 401 and 403, and Kaizen's own actions (`actor.kind` `automation`). Filters: `actorId` (a key's id, `root`, a dispatch's id, `kaizen`), `targetId`, `status`, `since`. Records are kept 90 days.
     */
    get: operations["getApiAudit"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/mcp": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Remote MCP
     * @description The Model Context Protocol over Streamable HTTP, stateless (no `Mcp-Session-Id`) and answering JSON, with the tools of `kaizen mcp`: `Accept: application/json, text/event-stream` and a JSON-RPC 2.0 message or batch. The root key gets every tool, an API key the tools its scopes allow, a dispatch token its dispatch's tools; each tool call is checked, scoped and audited as the same call to the API. Anything else is a 401 with `WWW-Authenticate: Bearer`. A body that is not JSON answers JSON-RPC's parse error (400, -32700); notifications alone answer 202. `GET` and `DELETE` answer 405: there is no stream or session to open or end.
     */
    post: operations["postMcp"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Issue: {
      id: string;
      number: number;
      identifier: string;
      title: string;
      description: string | null;
      /** @enum {string} */
      type: "signal" | "hypothesis" | "plan" | "task" | "monitor";
      /** @enum {string} */
      status: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
      priority: number;
      parentId: string | null;
      projectId: string | null;
      labels: string[];
      fingerprint: string | null;
      signalSource: string | null;
      fingerprints: string[];
      signalCount: number;
      lastSignalAt: string | null;
      hypothesis: {
        statement: string;
        confidence: number;
        evidence: string[];
        validationCriteria: string;
        prediction?: string | null;
      } | null;
      agentSummary: string | null;
      commits: {
        sha: string;
        message: string;
        /** @default null */
        url: string | null;
        /** @default null */
        author: string | null;
        /** @default null */
        timestamp: string | null;
      }[];
      pullRequests: {
        number: number;
        title: string;
        /** @default null */
        url: string | null;
        /** @default null */
        repository: string | null;
        /** @default null */
        state: string | null;
        /** @default null */
        mergedAt: string | null;
      }[];
      blockedBy: string[];
      reviewRounds: number;
      feedback: {
        /** @enum {string} */
        kind: "changes_requested" | "approved" | "commented" | "check_failed" | "closed_unmerged";
        author: string | null;
        body: string;
        url: string | null;
        /** Format: date-time */
        at: string;
        pullRequest: {
          repository: string | null;
          number: number;
        } | null;
      }[];
      verification: {
        /** @enum {string} */
        status: "pending" | "verified" | "regressed";
        /** Format: date-time */
        mergedAt: string;
        /** Format: date-time */
        until: string;
        regressedAt: string | null;
        signalId: string | null;
        dispatchId: string | null;
      } | null;
      statusChange: {
        /** @enum {string} */
        from: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        /** @enum {string} */
        to: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        /** @enum {string} */
        by: "api" | "dispatch" | "signal" | "automation";
        /** Format: date-time */
        at: string;
      } | null;
      completedAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    IssueDetail: {
      id: string;
      number: number;
      identifier: string;
      title: string;
      description: string | null;
      /** @enum {string} */
      type: "signal" | "hypothesis" | "plan" | "task" | "monitor";
      /** @enum {string} */
      status: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
      priority: number;
      parentId: string | null;
      projectId: string | null;
      labels: string[];
      fingerprint: string | null;
      signalSource: string | null;
      fingerprints: string[];
      signalCount: number;
      lastSignalAt: string | null;
      hypothesis: {
        statement: string;
        confidence: number;
        evidence: string[];
        validationCriteria: string;
        prediction?: string | null;
      } | null;
      agentSummary: string | null;
      commits: {
        sha: string;
        message: string;
        /** @default null */
        url: string | null;
        /** @default null */
        author: string | null;
        /** @default null */
        timestamp: string | null;
      }[];
      pullRequests: {
        number: number;
        title: string;
        /** @default null */
        url: string | null;
        /** @default null */
        repository: string | null;
        /** @default null */
        state: string | null;
        /** @default null */
        mergedAt: string | null;
      }[];
      blockedBy: string[];
      reviewRounds: number;
      feedback: {
        /** @enum {string} */
        kind: "changes_requested" | "approved" | "commented" | "check_failed" | "closed_unmerged";
        author: string | null;
        body: string;
        url: string | null;
        /** Format: date-time */
        at: string;
        pullRequest: {
          repository: string | null;
          number: number;
        } | null;
      }[];
      verification: {
        /** @enum {string} */
        status: "pending" | "verified" | "regressed";
        /** Format: date-time */
        mergedAt: string;
        /** Format: date-time */
        until: string;
        regressedAt: string | null;
        signalId: string | null;
        dispatchId: string | null;
      } | null;
      statusChange: {
        /** @enum {string} */
        from: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        /** @enum {string} */
        to: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        /** @enum {string} */
        by: "api" | "dispatch" | "signal" | "automation";
        /** Format: date-time */
        at: string;
      } | null;
      completedAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      parent: {
        id: string;
        number: number;
        identifier: string;
        title: string;
        /** @enum {string} */
        type: "signal" | "hypothesis" | "plan" | "task" | "monitor";
        /** @enum {string} */
        status: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        priority: number;
      } | null;
      children: {
        id: string;
        number: number;
        identifier: string;
        title: string;
        /** @enum {string} */
        type: "signal" | "hypothesis" | "plan" | "task" | "monitor";
        /** @enum {string} */
        status: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        priority: number;
      }[];
      relations: components["schemas"]["Relation"][];
      signals: components["schemas"]["Signal"][];
    };
    Relation: {
      id: string;
      /** @enum {string} */
      type: "blocks" | "blocked_by" | "related" | "duplicate";
      issueId: string;
      relatedIssueId: string;
      /** Format: date-time */
      createdAt: string;
    };
    Comment: {
      id: string;
      issueId: string;
      parentId: string | null;
      body: string;
      authorName: string;
      /** @enum {string} */
      authorType: "human" | "agent";
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Signal: {
      id: string;
      source: string;
      type: string;
      deliveryId: string | null;
      fingerprint: string;
      /** @enum {string} */
      severity: "low" | "medium" | "high" | "critical";
      title: string;
      /** @enum {string} */
      action: "opened" | "grouped" | "closed_loop" | "review" | "regressed" | "recorded";
      issueId: string | null;
      projectId: string | null;
      sourceKey: string | null;
      payloadBytes: number;
      payload?: unknown;
      headers: {
        [key: string]: string;
      };
      /** Format: date-time */
      receivedAt: string;
    };
    IngestResult: {
      signal: components["schemas"]["Signal"];
      issue: components["schemas"]["Issue"] | null;
      duplicate: boolean;
    };
    Project: {
      id: string;
      name: string;
      description: string | null;
      /** @enum {string} */
      status: "backlog" | "planned" | "active" | "paused" | "completed" | "canceled";
      /** @enum {string} */
      health: "on_track" | "at_risk" | "off_track";
      goalId: string | null;
      limits: {
        maxActivePerAgent: number | null;
        dailyCostBudgetUsd: number | null;
        maxInReview: number | null;
        maxCostPerDispatchUsd: number | null;
      };
      sources: {
        codehost: string[];
        errortracker: string[];
        analytics: string[];
      };
      automation: {
        acceptAtPriority: number | null;
        acceptAtSignals: number | null;
      };
      autonomy: {
        planApproval: boolean;
      };
      verifyHours: number;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    ProjectDetail: {
      id: string;
      name: string;
      description: string | null;
      /** @enum {string} */
      status: "backlog" | "planned" | "active" | "paused" | "completed" | "canceled";
      /** @enum {string} */
      health: "on_track" | "at_risk" | "off_track";
      goalId: string | null;
      limits: {
        maxActivePerAgent: number | null;
        dailyCostBudgetUsd: number | null;
        maxInReview: number | null;
        maxCostPerDispatchUsd: number | null;
      };
      sources: {
        codehost: string[];
        errortracker: string[];
        analytics: string[];
      };
      automation: {
        acceptAtPriority: number | null;
        acceptAtSignals: number | null;
      };
      autonomy: {
        planApproval: boolean;
      };
      verifyHours: number;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      issueCounts: {
        [key: string]: number;
      };
      usage: {
        date: string;
        reports: number;
        inputTokens: number;
        outputTokens: number;
        costUsd: number;
      };
    };
    Goal: {
      id: string;
      title: string;
      description: string | null;
      metric: string | null;
      targetValue: number | null;
      currentValue: number | null;
      unit: string | null;
      /** @enum {string} */
      status: "active" | "achieved" | "abandoned";
      projectId: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Label: {
      id: string;
      name: string;
      color: string;
      /** Format: date-time */
      createdAt: string;
    };
    Template: {
      id: string;
      slug: string;
      name: string;
      description: string | null;
      conditions: {
        /** @enum {string} */
        type?: "signal" | "hypothesis" | "plan" | "task" | "monitor";
        signalSource?: string;
        labels?: string[];
        projectId?: string;
        hasFailedDispatches?: boolean;
        minHypothesisConfidence?: number;
      };
      specificity: number;
      projectId: string | null;
      activeVersionId: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    TemplateDetail: {
      id: string;
      slug: string;
      name: string;
      description: string | null;
      conditions: {
        /** @enum {string} */
        type?: "signal" | "hypothesis" | "plan" | "task" | "monitor";
        signalSource?: string;
        labels?: string[];
        projectId?: string;
        hasFailedDispatches?: boolean;
        minHypothesisConfidence?: number;
      };
      specificity: number;
      projectId: string | null;
      activeVersionId: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      activeVersion: components["schemas"]["Version"] | null;
    };
    TemplatePreview: {
      issueId: string;
      template: components["schemas"]["Template"] | null;
      version: components["schemas"]["Version"] | null;
      experiment: {
        id: string;
        /** @enum {string} */
        arm: "control" | "candidate";
      } | null;
      text: string | null;
    };
    Partial: {
      name: string;
      content: string;
      description: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Version: {
      id: string;
      templateId: string;
      version: number;
      content: string;
      changelog: string | null;
      /** @enum {string} */
      authorType: "human" | "agent";
      authorName: string | null;
      /** @enum {string} */
      status: "draft" | "active" | "retired";
      usageCount: number;
      reviewCount: number;
      reviewScore: number | null;
      completionRate: number | null;
      outcomes: {
        completed: number;
        merged: number;
        reworked: number;
        regressed: number;
        verified: number;
      };
      verifiedRate: number | null;
      humanReviews: {
        approved: number;
        changesRequested: number;
        commented: number;
      };
      cost: {
        reports: number;
        inputTokens: number;
        outputTokens: number;
        costUsd: number;
        meanCostUsd: number | null;
      };
      /** Format: date-time */
      createdAt: string;
    };
    Experiment: {
      id: string;
      templateId: string;
      candidateVersionId: string;
      controlVersionId: string;
      trafficPercent: number;
      minSamples: number;
      autoPromote: boolean;
      /** @enum {string} */
      status: "running" | "promoted" | "winner" | "loser" | "stopped";
      /** Format: date-time */
      createdAt: string;
      endedAt: string | null;
      arms: {
        control: {
          versionId: string;
          versionNumber: number;
          claims: number;
          finished: number;
          completions: number;
          failures: number;
          merged: number;
          reworked: number;
          regressed: number;
          verified: number;
          reviews: number;
          completionRate: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
          reviewScore: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
          verifiedRate: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
          costUsd: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
        };
        candidate: {
          versionId: string;
          versionNumber: number;
          claims: number;
          finished: number;
          completions: number;
          failures: number;
          merged: number;
          reworked: number;
          regressed: number;
          verified: number;
          reviews: number;
          completionRate: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
          reviewScore: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
          verifiedRate: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
          costUsd: {
            value: number;
            low: number | null;
            high: number | null;
            samples: number;
          } | null;
        };
      };
      decision: {
        /** @enum {string} */
        outcome: "promoted" | "winner" | "loser" | "stopped";
        reason: string;
        /** Format: date-time */
        decidedAt: string;
        arms: {
          control: {
            versionId: string;
            versionNumber: number;
            claims: number;
            finished: number;
            completions: number;
            failures: number;
            merged: number;
            reworked: number;
            regressed: number;
            verified: number;
            reviews: number;
            completionRate: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
            reviewScore: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
            verifiedRate: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
            costUsd: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
          };
          candidate: {
            versionId: string;
            versionNumber: number;
            claims: number;
            finished: number;
            completions: number;
            failures: number;
            merged: number;
            reworked: number;
            regressed: number;
            verified: number;
            reviews: number;
            completionRate: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
            reviewScore: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
            verifiedRate: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
            costUsd: {
              value: number;
              low: number | null;
              high: number | null;
              samples: number;
            } | null;
          };
        };
      } | null;
    };
    Prompt: {
      id: string;
      issueId: string;
      dispatchId: string | null;
      templateId: string;
      versionId: string;
      versionNumber: number;
      experiment: {
        id: string;
        /** @enum {string} */
        arm: "control" | "candidate";
      } | null;
      text: string;
      /** Format: date-time */
      createdAt: string;
      reviewCount: number;
    };
    Review: {
      id: string;
      promptId: string;
      templateId: string;
      versionId: string;
      versionNumber: number;
      /** @enum {string} */
      source: "api" | "codehost";
      state: ("approved" | "changes_requested" | "commented") | null;
      sequence: number | null;
      clarity: number | null;
      completeness: number | null;
      relevance: number | null;
      composite: number | null;
      feedback: string | null;
      /** @enum {string} */
      authorType: "human" | "agent";
      authorName: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    Dispatch: {
      id: string;
      issueId: string;
      agent: string;
      /** @enum {string} */
      status: "active" | "waiting" | "completed" | "failed" | "released" | "expired" | "stopped";
      waitingFor: ("input" | "approval") | null;
      promptId: string | null;
      attempt: number;
      leaseSeconds: number;
      /** Format: date-time */
      claimedAt: string;
      heartbeatAt: string | null;
      /** Format: date-time */
      leaseExpiresAt: string;
      finishedAt: string | null;
      outcome: {
        summary: string;
        commits: {
          sha: string;
          message: string;
          /** @default null */
          url: string | null;
          /** @default null */
          author: string | null;
          /** @default null */
          timestamp: string | null;
        }[];
        pullRequests: {
          number: number;
          title: string;
          /** @default null */
          url: string | null;
          /** @default null */
          repository: string | null;
          /** @default null */
          state: string | null;
          /** @default null */
          mergedAt: string | null;
        }[];
        reviewRounds: number;
        verification: {
          /** @enum {string} */
          status: "pending" | "verified" | "regressed";
          /** Format: date-time */
          mergedAt: string;
          /** Format: date-time */
          until: string;
          regressedAt: string | null;
          signalId: string | null;
          dispatchId: string | null;
        } | null;
      } | null;
      usage: {
        inputTokens: number | null;
        outputTokens: number | null;
        costUsd: number | null;
        model: string | null;
      } | null;
      stopReason: string | null;
      planApproved: boolean | null;
      costBudgetUsd: number | null;
    };
    ClaimResult: {
      dispatch: {
        id: string;
        issueId: string;
        agent: string;
        /** @enum {string} */
        status: "active" | "waiting" | "completed" | "failed" | "released" | "expired" | "stopped";
        waitingFor: ("input" | "approval") | null;
        promptId: string | null;
        attempt: number;
        leaseSeconds: number;
        /** Format: date-time */
        claimedAt: string;
        heartbeatAt: string | null;
        /** Format: date-time */
        leaseExpiresAt: string;
        finishedAt: string | null;
        outcome: {
          summary: string;
          commits: {
            sha: string;
            message: string;
            /** @default null */
            url: string | null;
            /** @default null */
            author: string | null;
            /** @default null */
            timestamp: string | null;
          }[];
          pullRequests: {
            number: number;
            title: string;
            /** @default null */
            url: string | null;
            /** @default null */
            repository: string | null;
            /** @default null */
            state: string | null;
            /** @default null */
            mergedAt: string | null;
          }[];
          reviewRounds: number;
          verification: {
            /** @enum {string} */
            status: "pending" | "verified" | "regressed";
            /** Format: date-time */
            mergedAt: string;
            /** Format: date-time */
            until: string;
            regressedAt: string | null;
            signalId: string | null;
            dispatchId: string | null;
          } | null;
        } | null;
        usage: {
          inputTokens: number | null;
          outputTokens: number | null;
          costUsd: number | null;
          model: string | null;
        } | null;
        stopReason: string | null;
        planApproved: boolean | null;
        costBudgetUsd: number | null;
        token: string;
      };
      issue: components["schemas"]["Issue"];
      prompt: components["schemas"]["Prompt"] | null;
    };
    DispatchWithIssue: {
      dispatch: components["schemas"]["Dispatch"];
      issue: components["schemas"]["Issue"] | null;
    };
    DispatchDecision: {
      dispatch: components["schemas"]["Dispatch"];
      activity: components["schemas"]["Activity"];
    };
    ApiKey: {
      id: string;
      name: string;
      scopes: ("read" | "write" | "dispatch" | "admin")[];
      projectIds: string[] | null;
      prefix: string;
      /** Format: date-time */
      createdAt: string;
      expiresAt: string | null;
      lastUsedAt: string | null;
      revokedAt: string | null;
    };
    CreatedKey: {
      id: string;
      name: string;
      scopes: ("read" | "write" | "dispatch" | "admin")[];
      projectIds: string[] | null;
      prefix: string;
      /** Format: date-time */
      createdAt: string;
      expiresAt: string | null;
      lastUsedAt: string | null;
      revokedAt: string | null;
      key: string;
    };
    AuditRecord: {
      id: string;
      /** Format: date-time */
      at: string;
      actor: {
        /** @enum {string} */
        kind: "root" | "key" | "dispatch" | "automation";
        id: string;
        name: string;
      } | null;
      method: string | null;
      path: string | null;
      action: string | null;
      targetId: string | null;
      status: number | null;
      requestId: string | null;
      userAgent: string | null;
    };
    Caller: {
      /** @enum {string} */
      kind: "root" | "key" | "dispatch";
      id: string;
      name: string;
      scopes: ("read" | "write" | "dispatch" | "admin")[];
      projectIds: string[] | null;
    };
    QueueItem: {
      issue: components["schemas"]["Issue"];
      score: number;
      breakdown: {
        priority: number;
        type: number;
        goal: number;
        age: number;
        impact: number;
      };
      heldBy: ("review-capacity" | "daily-cost-budget") | null;
    };
    DashboardStats: {
      issues: {
        total: number;
        byStatus: {
          [key: string]: number;
        };
        byType: {
          [key: string]: number;
        };
      };
      signals: {
        last24h: {
          total: number;
          bySource: {
            [key: string]: number;
          };
        };
        last7d: {
          total: number;
          bySource: {
            [key: string]: number;
          };
        };
        perHour: {
          /** Format: date-time */
          hour: string;
          total: number;
          bySource: {
            [key: string]: number;
          };
        }[];
      };
      dispatches: {
        [key: string]: number;
      };
      queue: {
        depth: number;
      };
      todoToDone: {
        medianSeconds: number | null;
        count: number;
      };
      /** Format: date-time */
      generatedAt: string;
    };
    ActivityChain: {
      signal: {
        id: string;
        source: string;
        type: string;
        /** @enum {string} */
        severity: "low" | "medium" | "high" | "critical";
        title: string;
        /** @enum {string} */
        action: "opened" | "grouped" | "closed_loop" | "review" | "regressed" | "recorded";
        /** Format: date-time */
        receivedAt: string;
      };
      issue: {
        id: string;
        number: number;
        identifier: string;
        title: string;
        /** @enum {string} */
        type: "signal" | "hypothesis" | "plan" | "task" | "monitor";
        /** @enum {string} */
        status: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        priority: number;
      } | null;
      dispatch: {
        id: string;
        agent: string;
        /** @enum {string} */
        status: "active" | "waiting" | "completed" | "failed" | "released" | "expired" | "stopped";
        attempt: number;
        /** Format: date-time */
        claimedAt: string;
        finishedAt: string | null;
      } | null;
      outcome: {
        summary: string;
        commits: {
          sha: string;
          message: string;
          /** @default null */
          url: string | null;
          /** @default null */
          author: string | null;
          /** @default null */
          timestamp: string | null;
        }[];
        pullRequests: {
          number: number;
          title: string;
          /** @default null */
          url: string | null;
          /** @default null */
          repository: string | null;
          /** @default null */
          state: string | null;
          /** @default null */
          mergedAt: string | null;
        }[];
        reviewRounds: number;
        verification: {
          /** @enum {string} */
          status: "pending" | "verified" | "regressed";
          /** Format: date-time */
          mergedAt: string;
          /** Format: date-time */
          until: string;
          regressedAt: string | null;
          signalId: string | null;
          dispatchId: string | null;
        } | null;
      } | null;
    };
    PromptPerformance: {
      template: {
        id: string;
        slug: string;
        name: string;
        specificity: number;
        conditions: {
          /** @enum {string} */
          type?: "signal" | "hypothesis" | "plan" | "task" | "monitor";
          signalSource?: string;
          labels?: string[];
          projectId?: string;
          hasFailedDispatches?: boolean;
          minHypothesisConfidence?: number;
        };
      };
      activeVersion: {
        id: string;
        version: number;
        usageCount: number;
        reviewCount: number;
        reviewScore: number | null;
        completionRate: number | null;
        outcomes: {
          completed: number;
          merged: number;
          reworked: number;
          regressed: number;
          verified: number;
        };
        verifiedRate: number | null;
        cost: {
          reports: number;
          inputTokens: number;
          outputTokens: number;
          costUsd: number;
          meanCostUsd: number | null;
        };
        /** Format: date-time */
        createdAt: string;
      } | null;
      experiment: {
        id: string;
        candidateVersionId: string;
        candidateVersionNumber: number;
        trafficPercent: number;
      } | null;
    };
    AgentPerformance: {
      agent: string;
      claims: number;
      completed: number;
      failed: number;
      released: number;
      stopped: number;
      expired: number;
      merged: number;
      reworked: number;
      regressed: number;
      verified: number;
      verifiedRate: number | null;
      costUsd: number;
      usageReports: number;
    };
    Activity: {
      id: string;
      dispatchId: string;
      issueId: string;
      sequence: number;
      /** @enum {string} */
      type: "thought" | "action" | "response" | "error" | "elicitation" | "plan" | "message";
      body: string;
      data: {
        [key: string]: unknown;
      } | null;
      /** @enum {string} */
      authorType: "agent" | "human";
      authorName: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    UsageReport: {
      days: {
        date: string;
        reports: number;
        inputTokens: number;
        outputTokens: number;
        costUsd: number;
        agents: {
          agent: string;
          reports: number;
          inputTokens: number;
          outputTokens: number;
          costUsd: number;
        }[];
        projects: {
          projectId: string;
          reports: number;
          inputTokens: number;
          outputTokens: number;
          costUsd: number;
        }[];
      }[];
    };
    EventDestination: {
      id: string;
      url: string;
      events: (
        | "issue.created"
        | "issue.status_changed"
        | "dispatch.claimed"
        | "dispatch.completed"
        | "dispatch.failed"
        | "dispatch.expired"
        | "dispatch.waiting"
        | "dispatch.stopped"
        | "prompt.needs_attention"
        | "experiment.decided"
        | "issue.verified"
        | "issue.regressed"
      )[];
      description: string | null;
      active: boolean;
      deactivatedReason: string | null;
      deactivatedAt: string | null;
      consecutiveFailures: number;
      previousSecretExpiresAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    EventDestinationWithSecret: {
      id: string;
      url: string;
      events: (
        | "issue.created"
        | "issue.status_changed"
        | "dispatch.claimed"
        | "dispatch.completed"
        | "dispatch.failed"
        | "dispatch.expired"
        | "dispatch.waiting"
        | "dispatch.stopped"
        | "prompt.needs_attention"
        | "experiment.decided"
        | "issue.verified"
        | "issue.regressed"
      )[];
      description: string | null;
      active: boolean;
      deactivatedReason: string | null;
      deactivatedAt: string | null;
      consecutiveFailures: number;
      previousSecretExpiresAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      secret: string;
    };
    EventDelivery: {
      id: string;
      destinationId: string;
      eventId: string;
      /** @enum {string} */
      eventType:
        | "issue.created"
        | "issue.status_changed"
        | "dispatch.claimed"
        | "dispatch.completed"
        | "dispatch.failed"
        | "dispatch.expired"
        | "dispatch.waiting"
        | "dispatch.stopped"
        | "prompt.needs_attention"
        | "experiment.decided"
        | "issue.verified"
        | "issue.regressed";
      /** @enum {string} */
      status: "pending" | "succeeded" | "failed";
      nextAttemptAt: string | null;
      attempts: {
        /** Format: date-time */
        at: string;
        /** @enum {string} */
        outcome: "succeeded" | "failed";
        responseStatus: number | null;
        durationMs: number;
        error: string | null;
        /** @enum {string} */
        trigger: "automatic" | "manual";
      }[];
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    Runner: {
      id: string;
      name: string;
      /** @enum {string} */
      kind: "github_actions";
      repository: string;
      eventType: string;
      concurrency: number;
      filters: {
        projectId: string | null;
        types: ("signal" | "hypothesis" | "plan" | "task" | "monitor")[] | null;
      };
      agent: string;
      active: boolean;
      githubTokenConfigured: boolean;
      lastError: string | null;
      lastErrorAt: string | null;
      failures: number;
      retryAfter: string | null;
      disabledReason: string | null;
      activeDispatches: number;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    ServiceInfo: {
      /** @constant */
      name: "kaizen";
      version: string;
      description: string;
      docs: string;
      openapi: string;
    };
    Health: {
      /** @enum {string} */
      status: "ok" | "degraded";
      version: string;
      /** Format: date-time */
      timestamp: string;
      checks: {
        /** @enum {string} */
        database: "ok" | "unreachable";
      };
    };
    ProviderSetup: {
      /** @enum {string} */
      provider: "codehost" | "errortracker" | "analytics";
      name: string;
      receiverPath: string;
      receiverUrl: string;
      secret: {
        variable: string;
        configured: boolean;
      };
      signatureHeaders: string[];
      guide: string;
    };
    Error: {
      error: string;
      details?: {
        path: string;
        message: string;
      }[];
    };
  };
  responses: {
    /** @description Validation error: malformed JSON, a wrong type, an out-of-range or unknown field */
    BadRequest: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Missing or malformed Authorization header, or an invalid webhook signature */
    Unauthorized: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description A dispatch token used outside its own dispatch */
    Forbidden: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description No such resource */
    NotFound: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Conflict with the resource's state, or an Idempotency-Key reused with another body */
    Conflict: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description If-Match given and the resource's ETag differs */
    PreconditionFailed: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Body over the limit (1 MiB, 5 MiB for webhook receivers) */
    PayloadTooLarge: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The body is not of a media type this endpoint takes */
    UnsupportedMediaType: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description A limit was reached (a claim by an agent holding its project's `limits.maxActivePerAgent` dispatches); retry after `Retry-After` seconds */
    TooManyRequests: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        "Retry-After": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Internal error, or this receiver's secret is not configured */
    InternalError: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The database is unreachable or throttling, or the same change is still in progress elsewhere (concurrent changes that keep conflicting, a copy of a delivery still being stored); retry after `Retry-After` seconds */
    Unavailable: {
      headers: {
        "X-Request-Id": components["headers"]["RequestId"];
        "Retry-After": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
  };
  parameters: {
    page: number;
    limit: number;
    /** @description The same key with the same body within 24 h returns the first response again */
    IdempotencyKey: string;
    /** @description The ETag the change is based on (412 when the resource has changed) */
    IfMatch: string;
  };
  requestBodies: never;
  headers: {
    /** @description The request's id, also on its log lines; every answer carries one */
    RequestId: string;
    /** @description The resource's version (`"<n>"`, what `If-Match` takes), or a weak tag (`W/"…"`) of a document computed for the request, which `If-Match` never takes */
    ETag: string;
    /** @description Where the resource the answer carries is read */
    Location: string;
    /** @description Neighbouring pages (`rel="next"`, `rel="prev"`) */
    Link: string;
    /** @description `true` on the first answer given again for a repeated `Idempotency-Key` */
    IdempotentReplayed: string;
    /** @description Seconds to wait before trying again */
    RetryAfter: string;
    /** @description `Bearer`, on a bearer credential missing or refused (not on a webhook's signature) */
    WWWAuthenticate: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  get: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The service */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ServiceInfo"];
          };
        };
      };
    };
  };
  getLlmsTxt: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The guide */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/plain": string;
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Healthy */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Health"];
        };
      };
      /** @description Degraded: a check failed */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Health"];
        };
      };
    };
  };
  getApiOpenapiJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": Record<string, never>;
        };
      };
    };
  };
  getDocs: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The reference page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
    };
  };
  getDocsAssetsFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description File name, e.g. `swagger-ui-bundle.js` */
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/javascript": string;
          "text/css": string;
        };
      };
      404: components["responses"]["NotFound"];
    };
  };
  getApp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppIssues: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppIssuesId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getAppQueue: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppActivity: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppAgents: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppPrompts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppPromptsId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id (`tpl_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getAppProviders: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppProjects: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppProjectsId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Project id (`prj_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getAppGoals: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppLabels: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppAudit: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The console */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      503: components["responses"]["Unavailable"];
    };
  };
  getAppAssetsFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description File name, named by its content's hash, e.g. `app-HDPOXB4Q.js` */
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "text/javascript": string;
          "text/css": string;
        };
      };
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiProviders: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the providers (all three fit on the first) */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ProviderSetup"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiIssues: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        status?: string;
        type?: string;
        priority?: string;
        projectId?: string;
        parentId?: string;
        label?: string;
        fingerprint?: string;
        q?: string;
        sort?: "-createdAt" | "createdAt" | "priority" | "-updatedAt" | "number";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of issues */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Issue"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiIssues: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          description?: string | null;
          priority?: number;
          parentId?: string | null;
          projectId?: string | null;
          labels?: string[];
          hypothesis?: {
            statement: string;
            confidence: number;
            evidence: string[];
            validationCriteria: string;
            prediction?: string | null;
          } | null;
          agentSummary?: string | null;
          commits?: {
            sha: string;
            message: string;
            /** @default null */
            url?: string | null;
            /** @default null */
            author?: string | null;
            timestamp?: string | null;
          }[];
          pullRequests?: {
            number: number;
            title: string;
            /** @default null */
            url?: string | null;
            /** @default null */
            repository?: string | null;
            /** @default null */
            state?: string | null;
            mergedAt?: string | null;
          }[];
          title: string;
          /** @enum {string} */
          type: "signal" | "hypothesis" | "plan" | "task" | "monitor";
          /** @enum {string} */
          status?: "triage" | "backlog" | "todo" | "done" | "canceled";
        };
      };
    };
    responses: {
      /** @description The new issue */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Issue"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiIssuesId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The issue */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IssueDetail"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiIssuesId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  patchApiIssuesId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          description?: string | null;
          priority?: number;
          parentId?: string | null;
          projectId?: string | null;
          labels?: string[];
          hypothesis?: {
            statement: string;
            confidence: number;
            evidence: string[];
            validationCriteria: string;
            prediction?: string | null;
          } | null;
          agentSummary?: string | null;
          commits?: {
            sha: string;
            message: string;
            /** @default null */
            url?: string | null;
            /** @default null */
            author?: string | null;
            timestamp?: string | null;
          }[];
          pullRequests?: {
            number: number;
            title: string;
            /** @default null */
            url?: string | null;
            /** @default null */
            repository?: string | null;
            /** @default null */
            state?: string | null;
            mergedAt?: string | null;
          }[];
          title?: string;
          /** @enum {string} */
          type?: "signal" | "hypothesis" | "plan" | "task" | "monitor";
          /** @enum {string} */
          status?: "triage" | "backlog" | "todo" | "in_progress" | "in_review" | "done" | "canceled";
        };
      };
    };
    responses: {
      /** @description The updated issue */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Issue"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiIssuesIdComments: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        parentId?: string;
      };
      header?: never;
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of comments */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Comment"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiIssuesIdComments: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          body: string;
          authorName: string;
          /** @enum {string} */
          authorType: "human" | "agent";
          parentId?: string | null;
        };
      };
    };
    responses: {
      /** @description The new comment */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Comment"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiIssuesIdRelations: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          type: "blocks" | "blocked_by" | "related" | "duplicate";
          relatedIssueId: string;
        };
      };
    };
    responses: {
      /** @description The new relation */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Relation"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiRelationsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Relation id (`rel_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiProjects: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        status?: "backlog" | "planned" | "active" | "paused" | "completed" | "canceled";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Project"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiProjects: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          description?: string | null;
          /** @enum {string} */
          status?: "backlog" | "planned" | "active" | "paused" | "completed" | "canceled";
          /** @enum {string} */
          health?: "on_track" | "at_risk" | "off_track";
          goalId?: string | null;
          limits?: {
            maxActivePerAgent?: number | null;
            dailyCostBudgetUsd?: number | null;
            maxInReview?: number | null;
            maxCostPerDispatchUsd?: number | null;
          };
          sources?: {
            codehost?: string[];
            errortracker?: string[];
            analytics?: string[];
          };
          automation?: {
            acceptAtPriority?: number | null;
            acceptAtSignals?: number | null;
          };
          autonomy?: {
            planApproval?: boolean;
          };
          verifyHours?: number;
        };
      };
    };
    responses: {
      /** @description The new project */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Project"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiProjectsId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Project id (`prj_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The project */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ProjectDetail"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiProjectsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Project id (`prj_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  patchApiProjectsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Project id (`prj_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name?: string;
          description?: string | null;
          /** @enum {string} */
          status?: "backlog" | "planned" | "active" | "paused" | "completed" | "canceled";
          /** @enum {string} */
          health?: "on_track" | "at_risk" | "off_track";
          goalId?: string | null;
          limits?: {
            maxActivePerAgent?: number | null;
            dailyCostBudgetUsd?: number | null;
            maxInReview?: number | null;
            maxCostPerDispatchUsd?: number | null;
          };
          sources?: {
            codehost?: string[];
            errortracker?: string[];
            analytics?: string[];
          };
          automation?: {
            acceptAtPriority?: number | null;
            acceptAtSignals?: number | null;
          };
          autonomy?: {
            planApproval?: boolean;
          };
          verifyHours?: number;
        };
      };
    };
    responses: {
      /** @description The updated project */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Project"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiGoals: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        status?: "active" | "achieved" | "abandoned";
        projectId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Goal"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiGoals: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          title: string;
          description?: string | null;
          metric?: string | null;
          targetValue?: number | null;
          currentValue?: number | null;
          unit?: string | null;
          /** @enum {string} */
          status?: "active" | "achieved" | "abandoned";
          projectId?: string | null;
        };
      };
    };
    responses: {
      /** @description The new goal */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Goal"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiGoalsId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Goal id (`gol_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The goal */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Goal"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiGoalsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Goal id (`gol_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  patchApiGoalsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Goal id (`gol_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          title?: string;
          description?: string | null;
          metric?: string | null;
          targetValue?: number | null;
          currentValue?: number | null;
          unit?: string | null;
          /** @enum {string} */
          status?: "active" | "achieved" | "abandoned";
          projectId?: string | null;
        };
      };
    };
    responses: {
      /** @description The updated goal */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Goal"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiLabels: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Label"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiLabels: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          color: string;
        };
      };
    };
    responses: {
      /** @description The new label */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Label"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiLabelsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Label id (`lbl_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiSignalsCodehost: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": Record<string, never>;
        "application/x-www-form-urlencoded": {
          payload: string;
        };
      };
    };
    responses: {
      /** @description A delivery already stored (`duplicate: true`); nothing new was written */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IngestResult"];
          };
        };
      };
      /** @description A new delivery was stored */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IngestResult"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      500: components["responses"]["InternalError"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiSignalsErrortracker: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A delivery already stored (`duplicate: true`); nothing new was written */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IngestResult"];
          };
        };
      };
      /** @description A new delivery was stored */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IngestResult"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      500: components["responses"]["InternalError"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiSignalsAnalytics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A delivery already stored (`duplicate: true`); nothing new was written */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IngestResult"];
          };
        };
      };
      /** @description A new delivery was stored */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IngestResult"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      500: components["responses"]["InternalError"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiSignals: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        source?: string;
        type?: string;
        severity?: "low" | "medium" | "high" | "critical";
        issueId?: string;
        action?: "opened" | "grouped" | "closed_loop" | "review" | "regressed" | "recorded";
        since?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Signal"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiSignals: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          source: string;
          type: string;
          title: string;
          /** @enum {string} */
          severity: "low" | "medium" | "high" | "critical";
          payload?: {
            [key: string]: unknown;
          };
          fingerprint?: string;
          projectId?: string;
        };
      };
    };
    responses: {
      /** @description The signal and the issue it opened or joined */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["IngestResult"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiSignalsId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Signal id (`sig_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The signal */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Signal"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiIssuesIdSignals: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Signal"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiIssuesIdMerge: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          intoId: string;
        };
      };
    };
    responses: {
      /** @description The issue that stays */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Issue"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiTemplates: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        projectId?: string;
        type?: "signal" | "hypothesis" | "plan" | "task" | "monitor";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Template"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiTemplates: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          slug: string;
          name: string;
          description?: string | null;
          conditions?: {
            /** @enum {string} */
            type?: "signal" | "hypothesis" | "plan" | "task" | "monitor";
            signalSource?: string;
            labels?: string[];
            projectId?: string;
            hasFailedDispatches?: boolean;
            minHypothesisConfidence?: number;
          };
          specificity?: number;
          projectId?: string | null;
          content?: string;
          changelog?: string | null;
          /** @enum {string} */
          authorType?: "human" | "agent";
          authorName?: string | null;
        };
      };
    };
    responses: {
      /** @description The new template */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["TemplateDetail"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiTemplatesPreviewIssueId: {
    parameters: {
      query?: {
        versionId?: string;
      };
      header?: never;
      path: {
        /** @description Issue id (`iss_…`) or `KZN-<number>` */
        issueId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The chosen template and rendered text (nulls when none matches) */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["TemplatePreview"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiTemplatesId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The template */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["TemplateDetail"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiTemplatesId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  patchApiTemplatesId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          slug?: string;
          name?: string;
          description?: string | null;
          conditions?: {
            /** @enum {string} */
            type?: "signal" | "hypothesis" | "plan" | "task" | "monitor";
            signalSource?: string;
            labels?: string[];
            projectId?: string;
            hasFailedDispatches?: boolean;
            minHypothesisConfidence?: number;
          };
          specificity?: number;
          projectId?: string | null;
        };
      };
    };
    responses: {
      /** @description The updated template */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["TemplateDetail"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiTemplatesIdVersions: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Version"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiTemplatesIdVersions: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          content: string;
          changelog?: string | null;
          /** @enum {string} */
          authorType?: "human" | "agent";
          authorName?: string | null;
        };
      };
    };
    responses: {
      /** @description The new draft */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Version"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiTemplatesIdVersionsVersionIdPromote: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
        /** @description Version id (`ver_…`) */
        versionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The template with its new active version */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["TemplateDetail"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiTemplatesIdReviews: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Review"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiTemplatesIdExperiments: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Experiment"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiTemplatesIdExperiments: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          candidateVersionId: string;
          trafficPercent: number;
          minSamples?: number;
          autoPromote?: boolean;
        };
      };
    };
    responses: {
      /** @description The experiment, running */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Experiment"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiTemplatesIdExperimentsExperimentId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
        /** @description Experiment id (`exp_…`) */
        experimentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The experiment with its arms' figures */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Experiment"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiTemplatesIdExperimentsExperimentId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Template id (`tpl_…`) or slug */
        id: string;
        /** @description Experiment id (`exp_…`) */
        experimentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The experiment, stopped */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Experiment"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiPartials: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Partial"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiPartials: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          content: string;
          description?: string | null;
        };
      };
    };
    responses: {
      /** @description The new partial */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Partial"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiPartialsName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Partial name (`[a-z0-9_-]{1,64}`) */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The partial */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Partial"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiPartialsName: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Partial name (`[a-z0-9_-]{1,64}`) */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  patchApiPartialsName: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Partial name (`[a-z0-9_-]{1,64}`) */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          content?: string;
          description?: string | null;
        };
      };
    };
    responses: {
      /** @description The updated partial */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Partial"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiPrompts: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        templateId?: string;
        versionId?: string;
        issueId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Prompt"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiPromptsId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Prompt id (`prm_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The prompt */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Prompt"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiPromptsIdReviews: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path: {
        /** @description Prompt id (`prm_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Review"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiPromptsIdReviews: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Prompt id (`prm_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          clarity: number;
          completeness: number;
          relevance: number;
          feedback?: string | null;
          /** @enum {string} */
          authorType: "human" | "agent";
          authorName?: string | null;
        };
      };
    };
    responses: {
      /** @description The new review */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Review"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchClaim: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          agent: string;
          projectId?: string;
          types?: ("signal" | "hypothesis" | "plan" | "task" | "monitor")[];
          leaseSeconds?: number;
        };
      };
    };
    responses: {
      /** @description The dispatch, its issue and the rendered prompt */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ClaimResult"];
          };
        };
      };
      /** @description Nothing is eligible. With `Kaizen-Claim-Stopped: daily-cost-budget`: the only issues left are in projects whose agents reported `limits.dailyCostBudgetUsd` or more today (UTC); claims of them resume the next UTC day or when the budget is raised. With `Kaizen-Claim-Stopped: review-capacity`: issues are held back because `limits.maxInReview` of their projects' issues wait in review (this value wins when both apply); claims resume as reviews end. */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          /** @description Why nothing was claimed although issues are queued: their projects' reviews are full, or their daily cost budget is spent */
          "Kaizen-Claim-Stopped"?: "daily-cost-budget" | "review-capacity";
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDispatchNext: {
    parameters: {
      query?: {
        agent?: string;
        projectId?: string;
        types?: string;
        leaseSeconds?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The dispatch, its issue and the rendered prompt */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ClaimResult"];
          };
        };
      };
      /** @description Nothing is eligible. With `Kaizen-Claim-Stopped: daily-cost-budget`: the only issues left are in projects whose agents reported `limits.dailyCostBudgetUsd` or more today (UTC); claims of them resume the next UTC day or when the budget is raised. With `Kaizen-Claim-Stopped: review-capacity`: issues are held back because `limits.maxInReview` of their projects' issues wait in review (this value wins when both apply); claims resume as reviews end. */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          /** @description Why nothing was claimed although issues are queued: their projects' reviews are full, or their daily cost budget is spent */
          "Kaizen-Claim-Stopped"?: "daily-cost-budget" | "review-capacity";
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      429: components["responses"]["TooManyRequests"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDispatchQueue: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        projectId?: string;
        types?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of the queue, in claim order */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["QueueItem"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDispatch: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        status?: "active" | "waiting" | "completed" | "failed" | "released" | "expired" | "stopped";
        issueId?: string;
        agent?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Dispatch"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDispatchId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The dispatch */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Dispatch"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdHeartbeat: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        "application/json": {
          usage?: {
            inputTokens?: number;
            outputTokens?: number;
            costUsd?: number;
            model?: string;
          };
        };
      };
    };
    responses: {
      /** @description The dispatch with its new lease */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Dispatch"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDispatchIdActivities: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        after?: string;
      };
      header?: never;
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of activities, oldest first */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Activity"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdActivities: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          type: "thought" | "action" | "response" | "error" | "elicitation" | "plan";
          body: string;
          usage?: {
            inputTokens?: number;
            outputTokens?: number;
            costUsd?: number;
            model?: string;
          };
          data?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description The activity */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Activity"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdComplete: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @enum {string} */
          result: "done" | "failed";
          summary: string;
          commits?: {
            sha: string;
            message: string;
            /** @default null */
            url?: string | null;
            /** @default null */
            author?: string | null;
            timestamp?: string | null;
          }[];
          pullRequests?: {
            number: number;
            title: string;
            /** @default null */
            url?: string | null;
            /** @default null */
            repository?: string | null;
            /** @default null */
            state?: string | null;
            mergedAt?: string | null;
          }[];
          usage?: {
            inputTokens?: number;
            outputTokens?: number;
            costUsd?: number;
            model?: string;
          };
        };
      };
    };
    responses: {
      /** @description The finished dispatch and its issue */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["DispatchWithIssue"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdMessages: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          body: string;
        };
      };
    };
    responses: {
      /** @description The message, as an activity */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Activity"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdApprove: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          comment?: string;
        };
      };
    };
    responses: {
      /** @description The dispatch and the message its agent reads */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["DispatchDecision"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdReject: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          feedback: string;
        };
      };
    };
    responses: {
      /** @description The dispatch and the message its agent reads */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["DispatchDecision"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdStop: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          reason: string;
          /**
           * @default todo
           * @enum {string}
           */
          then?: "todo" | "backlog" | "canceled";
        };
      };
    };
    responses: {
      /** @description The stopped dispatch and its issue */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["DispatchWithIssue"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiDispatchIdRelease: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Dispatch id (`dsp_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The released dispatch and its issue */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["DispatchWithIssue"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiEventDestinations: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["EventDestination"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiEventDestinations: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          url: string;
          events: (
            | "issue.created"
            | "issue.status_changed"
            | "dispatch.claimed"
            | "dispatch.completed"
            | "dispatch.failed"
            | "dispatch.expired"
            | "dispatch.waiting"
            | "dispatch.stopped"
            | "prompt.needs_attention"
            | "experiment.decided"
            | "issue.verified"
            | "issue.regressed"
          )[];
          description?: string | null;
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description The new destination and its signing secret */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["EventDestinationWithSecret"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiEventDestinationsId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Event destination id (`dst_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The destination */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["EventDestination"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiEventDestinationsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Event destination id (`dst_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  patchApiEventDestinationsId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Event destination id (`dst_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          url?: string;
          events?: (
            | "issue.created"
            | "issue.status_changed"
            | "dispatch.claimed"
            | "dispatch.completed"
            | "dispatch.failed"
            | "dispatch.expired"
            | "dispatch.waiting"
            | "dispatch.stopped"
            | "prompt.needs_attention"
            | "experiment.decided"
            | "issue.verified"
            | "issue.regressed"
          )[];
          description?: string | null;
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description The changed destination */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["EventDestination"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiEventDestinationsIdRotateSecret: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Event destination id (`dst_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The destination and its new secret */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["EventDestinationWithSecret"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiEventDestinationsIdDeliveries: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path: {
        /** @description Event destination id (`dst_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["EventDelivery"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiEventDestinationsIdDeliveriesDeliveryIdRetry: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description Event destination id (`dst_…`) */
        id: string;
        /** @description Delivery id (`dlv_…`) */
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery with this attempt */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["EventDelivery"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiRunners: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Runner"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiRunners: {
    parameters: {
      query?: never;
      header?: {
        /** @description The same key with the same body within 24 h returns the first response again */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          /** @enum {string} */
          kind: "github_actions";
          repository: string;
          eventType?: string;
          concurrency?: number;
          filters?: {
            projectId?: string | null;
            types?: ("signal" | "hypothesis" | "plan" | "task" | "monitor")[] | null;
          };
          agent?: string;
          active?: boolean;
          githubToken: string;
        };
      };
    };
    responses: {
      /** @description The new runner */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Runner"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiRunnersId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Runner id (`run_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The runner */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Runner"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiRunnersId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Runner id (`run_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content?: never;
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  patchApiRunnersId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Runner id (`run_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name?: string;
          repository?: string;
          eventType?: string;
          concurrency?: number;
          filters?: {
            projectId?: string | null;
            types?: ("signal" | "hypothesis" | "plan" | "task" | "monitor")[] | null;
          };
          agent?: string;
          active?: boolean;
          githubToken?: string;
        };
      };
    };
    responses: {
      /** @description The changed runner */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Runner"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDashboardStats: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The figures */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["DashboardStats"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDashboardActivity: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of chains, newest first */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ActivityChain"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDashboardPrompts: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of templates */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["PromptPerformance"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDashboardAgents: {
    parameters: {
      query?: {
        days?: string;
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of agents, most claims first */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["AgentPerformance"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiDashboardUsage: {
    parameters: {
      query?: {
        days?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The days, newest first */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["UsageReport"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiKeys: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every key */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ApiKey"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          name: string;
          scopes: ("read" | "write" | "dispatch" | "admin")[];
          projectIds?: string[];
          /** Format: date-time */
          expiresAt?: string;
        };
      };
    };
    responses: {
      /** @description The key, with its text this once */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          Location: components["headers"]["Location"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["CreatedKey"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiKeysId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Key id (`key_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key, without its text */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ApiKey"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      503: components["responses"]["Unavailable"];
    };
  };
  deleteApiKeysId: {
    parameters: {
      query?: never;
      header?: {
        /** @description The ETag the change is based on (412 when the resource has changed) */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description Key id (`key_…`) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key, revoked */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["ApiKey"];
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["Caller"];
          };
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  getApiAudit: {
    parameters: {
      query?: {
        page?: components["parameters"]["page"];
        limit?: components["parameters"]["limit"];
        actorId?: string;
        targetId?: string;
        status?: string;
        since?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of records */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          Link: components["headers"]["Link"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: components["schemas"]["AuditRecord"][];
            /** @description Count of all matching items */
            total: number;
          };
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
  postMcp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": Record<string, never> | unknown[];
      };
    };
    responses: {
      /** @description The JSON-RPC answer (an array for a batch) */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["RequestId"];
          [name: string]: unknown;
        };
        content: {
          "application/json": Record<string, never> | unknown[];
        };
      };
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      503: components["responses"]["Unavailable"];
    };
  };
}

/**
 * @module templates/defaults — the five templates every installation starts with, one per issue type
 * (docs/api.md#templates-and-versions), and the partial they share (docs/api.md#partials).
 */
import type { IssueType } from "../issues/schemas.js";
import type { DEFAULT_PARTIAL_NAMES, DEFAULT_TEMPLATE_SLUGS } from "./keys.js";

/** A template seeded on first start, with the content of its active version 1. */
export interface DefaultTemplate {
  slug: (typeof DEFAULT_TEMPLATE_SLUGS)[number];
  name: string;
  description: string;
  conditions: { type: IssueType };
  specificity: 10;
  content: string;
  changelog: string;
}

// Markdown code fences, kept out of the template literals so the prompts read as they render.
const FENCE = "```";

/** What every prompt says about the issue: its facts, family, blockers, signals and history. */
const ISSUE_FACTS = `# {{issueRef issue}}: {{issue.title}}

- Type: {{issue.type}} · status: {{issue.status}} · priority: {{priorityLabel issue.priority}}{{#if labels}} · labels: {{#each labels}}{{name}}{{#unless @last}}, {{/unless}}{{/each}}{{/if}}
{{#if project}}
- Project: {{project.name}} ({{project.status}}, {{project.health}}){{#if project.description}}: {{project.description}}{{/if}}
{{/if}}
{{#if goal}}
- Goal: {{goal.title}}{{#if goal.metric}}, measured by {{goal.metric}}: now {{goal.currentValue}} {{goal.unit}}, target {{goal.targetValue}} {{goal.unit}}{{/if}}
{{/if}}
{{#if parent}}
- Part of {{issueRef parent}}: {{parent.title}} ({{parent.status}})
{{/if}}
{{#each children}}
- Child {{issueRef this}}: {{title}} ({{status}})
{{/each}}
{{#each blockedBy}}
- Waiting on {{issueRef this}}: {{title}} ({{status}})
{{/each}}
{{#each blocking}}
- Blocking {{issueRef this}}: {{title}} ({{status}})
{{/each}}

## Description

{{#if issue.description}}{{issue.description}}{{else}}No description was given; the title and any signals below are all there is.{{/if}}
{{#each signals}}

## Signal: {{title}} ({{source}} {{type}}, severity {{severity}}, received {{receivedAt}})
${FENCE}json
{{json payload}}
${FENCE}
{{/each}}
{{#if previousDispatches}}

## Earlier attempts: start from what they learned, do not repeat what failed
{{#each previousDispatches}}
- Attempt {{attempt}} by {{agent}}: {{status}}{{#if finishedAt}} at {{finishedAt}}{{/if}}{{#if summary}}. {{summary}}{{/if}}{{#if pullRequests}} — pull request{{#each pullRequests}} #{{number}}{{#if url}} ({{url}}){{/if}}{{#unless @last}},{{/unless}}{{/each}}{{/if}}
{{/each}}
{{/if}}
{{#if feedback}}

## Review feedback{{#if reviewRounds}}: review sent this back {{reviewRounds}} time(s){{/if}}. Address every point before completing again
{{#each feedback}}
- {{kind}}{{#if author}} by {{author}}{{/if}}{{#if pullRequest}} on pull request #{{pullRequest.number}}{{/if}}, {{at}}{{#if url}} ({{url}}){{/if}}:
{{body}}
{{/each}}
{{/if}}
`;

/**
 * How to answer through the API with the dispatch's own token (never the service key), or, for a
 * preview, that there is nothing to answer to. No issue text goes into the curl lines: a title
 * with a quote in it would break them.
 */
const REPORTING = `## Reporting back

{{#if dispatch}}
You hold dispatch \`{{dispatch.id}}\`. Its token authorises the calls below, for this issue and this prompt only, and expires with the dispatch. Bodies are JSON; when a text holds a single quote, send it with \`--data @- <<'JSON'\` instead of \`-d\`.

Heartbeat before the lease ends ({{dispatch.leaseExpiresAt}}): each one extends it by its length; without them the dispatch expires and the issue goes back to the queue. Say what you are doing as you go, as activities the people watching follow (\`type\`: thought, action, response or error; each extends the lease too), and comment on the issue to record findings:
${FENCE}sh
curl -sS -X POST "{{api.baseUrl}}/api/dispatch/{{dispatch.id}}/heartbeat" -H "Authorization: Bearer {{dispatch.token}}"
curl -sS -X POST "{{api.baseUrl}}/api/dispatch/{{dispatch.id}}/activities" -H "Authorization: Bearer {{dispatch.token}}" -H "Content-Type: application/json" -d '{"type": "action", "body": "What you ran or changed, and what it showed"}'
curl -sS -X POST "{{api.baseUrl}}/api/issues/{{issue.id}}/comments" -H "Authorization: Bearer {{dispatch.token}}" -H "Content-Type: application/json" -d '{"body": "What you found", "authorName": "your agent name", "authorType": "agent"}'
${FENCE}
When only a person can decide, ask with an activity of \`type\` \`elicitation\` instead of guessing: the dispatch waits, its lease paused, until a person answers with a \`message\` activity; read it with \`curl -sS "{{api.baseUrl}}/api/dispatch/{{dispatch.id}}/activities?after=<your question's sequence>" -H "Authorization: Bearer {{dispatch.token}}"\`.
{{#if project.autonomy.planApproval}}This project wants a person to approve your plan first: before you change anything, post it as an activity of \`type\` \`plan\` and wait for the answer the same way, a \`message\` whose \`data.decision\` is \`approved\` (go ahead) or \`rejected\` (change the plan as it says and post it again). Completing \`done\` before your latest plan was approved is refused.
{{/if}}
{{#if prompt}}
Before you complete, review this prompt (each rating 1 to 5) so its template improves; the token stops working once the dispatch ends:
${FENCE}sh
curl -sS -X POST "{{api.baseUrl}}/api/prompts/{{prompt.id}}/reviews" -H "Authorization: Bearer {{dispatch.token}}" -H "Content-Type: application/json" -d '{"clarity": 4, "completeness": 4, "relevance": 5, "feedback": "What was unclear or missing", "authorType": "agent"}'
${FENCE}
{{/if}}
Complete once: \`done\` finishes the issue, or puts it in review while a pull request you name is open (a review that asks for changes sends it back, with its feedback, to whoever claims it next); \`failed\` puts it back in the queue with your summary for the next attempt. \`commits\` and \`pullRequests\` are optional (give each pull request's \`url\`, so its reviews find this issue), and so is \`usage\`, but report it whenever you know it (tokens read and written, the cost in US dollars, the model): it is how the versions of this prompt are compared on cost. If you cannot work on the issue, release the dispatch instead (the last line): the issue goes back to the queue untouched.
${FENCE}sh
curl -sS -X POST "{{api.baseUrl}}/api/dispatch/{{dispatch.id}}/complete" -H "Authorization: Bearer {{dispatch.token}}" -H "Content-Type: application/json" -d '{"result": "done", "summary": "What changed and how it was verified", "commits": [{"sha": "0123abc", "message": "Commit message"}], "usage": {"inputTokens": 120000, "outputTokens": 8000, "costUsd": 0.42, "model": "your model"}, "pullRequests": [{"number": 1, "title": "{{issueRef issue}}: short title", "url": "https://github.com/owner/repo/pull/1"}]}'
curl -sS -X POST "{{api.baseUrl}}/api/dispatch/{{dispatch.id}}/release" -H "Authorization: Bearer {{dispatch.token}}"
${FENCE}
{{else}}
This prompt is a preview: no dispatch was claimed, so there is no token, no lease and nothing to report back to. An agent receives the reporting instructions when it claims the issue.
{{/if}}
`;

/** The partial every default template includes for {@link REPORTING} (docs/api.md#partials). */
export const REPORTING_PARTIAL: (typeof DEFAULT_PARTIAL_NAMES)[number] = "kaizen-reporting";

/**
 * A whole prompt: the issue's facts, what to do with this type of issue, how to report back (the
 * shared partial, on a line of its own so it renders exactly as its text written in place would).
 */
function prompt(work: string): string {
  return `${ISSUE_FACTS}\n${work.trim()}\n\n{{> ${REPORTING_PARTIAL}}}\n`;
}

/** A partial seeded on first start with the default templates. */
export interface DefaultPartial {
  name: (typeof DEFAULT_PARTIAL_NAMES)[number];
  description: string;
  content: string;
}

/**
 * The default partials, seeded before the default templates that include them.
 * @example DEFAULT_PARTIALS[0]?.name // "kaizen-reporting"
 */
export const DEFAULT_PARTIALS: readonly DefaultPartial[] = [
  {
    name: REPORTING_PARTIAL,
    description:
      "How an agent reports back through the API with its dispatch token: heartbeats, activities, comments, questions, the prompt's review, completion and release. Included by every default template.",
    content: REPORTING,
  },
];

const SIGNAL_TRIAGE = `
## Your task: triage this signal

This issue was opened from {{#if issue.signalSource}}{{issue.signalSource}}{{else}}a signal{{/if}} ({{issue.signalCount}} signal(s){{#if issue.lastSignalAt}}, the last at {{issue.lastSignalAt}}{{/if}}). Find out what it means and act:

1. Reproduce it. Use the payloads above (stack traces, events, request details) to make the failure happen in a test or locally, and note exactly how.
2. Find the root cause: the code path that fails and why it fails, not only where.
3. Decide, and say why in a comment:
   - Real and fixable: fix it with a test that fails before the fix and passes after. Open a pull request whose title names {{issueRef issue}} or whose branch is \`kaizen/{{issue.number}}-short-name\`, so its merge closes this issue; then complete with \`done\`.
   - Noise, a duplicate or already fixed: put the evidence in a comment and complete with \`done\`, the summary saying why no change is needed.
   - Real but too large for one change: comment with the root cause and the steps you propose, then complete with \`failed\` and a summary saying it needs planning.
`;

const HYPOTHESIS_PLANNING = `
## Your task: design how to validate this hypothesis

{{#with issue.hypothesis}}
- {{statement}} (confidence {{confidence}}){{#if prediction}}. Prediction: {{prediction}}{{/if}}
- Validated when: {{validationCriteria}}
{{#each evidence}}
- Evidence: {{this}}
{{/each}}
{{else}}
No hypothesis is recorded yet. State one in a comment first: the statement, your confidence (0 to 1), the evidence and how it would be validated.
{{/with}}

1. Say what would be observed if the hypothesis holds and what if it does not. Make the criteria measurable: a metric, a threshold, a time window.
2. Choose the cheapest sound test: an analytics query, a log search, a benchmark, a small experiment behind a flag. Name the data it needs and how long it runs.
3. Run what you can now. If the test needs code (instrumentation, an experiment), make that change with tests and open a pull request whose title names {{issueRef issue}}.
4. Post the design and any results in a comment (the numbers, and whether confidence should go up or down), then complete with \`done\` and a summary giving the verdict: supported, refuted, or inconclusive and what is missing.
`;

const PLAN_DECOMPOSITION = `
## Your task: break this plan into tasks

1. List the outcomes the plan must deliver{{#if goal}} and how each moves the goal{{/if}}.
2. Split them into task issues one agent can finish in one sitting, each with a definition of done and the tests that prove it. Say which task blocks which.
3. Check the child issues above first and do not duplicate them.
4. Create each task{{#if parent}} under {{issueRef parent}}, as this plan is itself a child and issues nest one level only{{else}} as a child of this plan{{/if}}:

${FENCE}sh
curl -sS -X POST "{{api.baseUrl}}/api/issues" -H "Authorization: Bearer $KAIZEN_API_KEY" -H "Content-Type: application/json" -d '{"title": "Short imperative title", "type": "task", "priority": {{issue.priority}}, "parentId": "{{#if parent}}{{parent.id}}{{else}}{{issue.id}}{{/if}}"{{#if issue.projectId}}, "projectId": "{{issue.projectId}}"{{/if}}, "description": "What to do, why, and how to verify it"}'
${FENCE}

   Creating issues takes the service key your runner claims with (\`$KAIZEN_API_KEY\` in its environment); the dispatch token does not allow it. Never write that key into a comment or summary. Without it, list the tasks in a comment instead.
5. Complete with \`done\`, the summary listing the new tasks by \`KZN-\` number in the order they should be done.
`;

const TASK_EXECUTION = `
## Your task: implement it

1. Read the description and everything above. If something you need is missing, ask in a comment rather than guess.
2. Work on a branch named \`kaizen/{{issue.number}}-short-name\`.
3. Make the change with tests that fail before it and pass after it; run the project's whole test suite and its linters.
4. Open a pull request whose title names {{issueRef issue}}, for example "{{issueRef issue}}: {{issue.title}}". The code host reports the merge to Kaizen, and the merge closes this issue.
5. Complete with \`done\`, listing the commits and the pull request, and a summary of what changed and how you verified it. If you cannot finish, complete with \`failed\` and say what you tried and what stopped you, so the next attempt starts further along.
`;

const MONITOR_CHECK = `
## Your task: check the metric and report

1. Measure {{#if goal.metric}}{{goal.metric}} (last recorded {{goal.currentValue}} {{goal.unit}}, target {{goal.targetValue}} {{goal.unit}}){{else}}the metric the description names{{/if}} now, from its source of truth (analytics, logs, dashboards). Note the query, the time window and the value.
2. Compare it with the target and with the previous checks (earlier attempts and comments): on track, drifting, or broken?
3. If it has regressed, look for the likely cause (recent deploys, the signals above) and recommend the next step.
4. Comment with the value, the window, the trend and the evidence (the query or a link).
5. Complete with \`done\` and a one-line summary: metric, value, trend, verdict. Complete with \`failed\` only if you could not measure it, and say why.
`;

const CHANGELOG = "Default template shipped with Kaizen.";

/**
 * The default templates, seeded (each with an active version 1) on first start.
 * @example DEFAULT_TEMPLATES.find((template) => template.conditions.type === "task")?.slug // "task-execution"
 */
export const DEFAULT_TEMPLATES: readonly DefaultTemplate[] = [
  {
    slug: "signal-triage",
    name: "Signal triage",
    description: "Reproduce what a signal reports, find the root cause, then fix it or explain why not.",
    conditions: { type: "signal" },
    specificity: 10,
    content: prompt(SIGNAL_TRIAGE),
    changelog: CHANGELOG,
  },
  {
    slug: "hypothesis-planning",
    name: "Hypothesis planning",
    description: "Design and run the cheapest sound test of a hypothesis and report the verdict.",
    conditions: { type: "hypothesis" },
    specificity: 10,
    content: prompt(HYPOTHESIS_PLANNING),
    changelog: CHANGELOG,
  },
  {
    slug: "plan-decomposition",
    name: "Plan decomposition",
    description: "Break a plan into ordered child task issues, each small enough for one agent.",
    conditions: { type: "plan" },
    specificity: 10,
    content: prompt(PLAN_DECOMPOSITION),
    changelog: CHANGELOG,
  },
  {
    slug: "task-execution",
    name: "Task execution",
    description: "Implement a task with tests and open a pull request that closes the issue on merge.",
    conditions: { type: "task" },
    specificity: 10,
    content: prompt(TASK_EXECUTION),
    changelog: CHANGELOG,
  },
  {
    slug: "monitor-check",
    name: "Monitor check",
    description: "Measure a metric, compare it with its target and previous checks, and report.",
    conditions: { type: "monitor" },
    specificity: 10,
    content: prompt(MONITOR_CHECK),
    changelog: CHANGELOG,
  },
];

/**
 * `content` with each default partial it includes written in place, as the defaults read before they
 * shared it: what a default is seeded with when its users deleted the partial first.
 * @example withDefaultPartialsInPlace("Work.\n\n{{> kaizen-reporting}}\n") // "Work.\n\n## Reporting back\n…"
 */
export function withDefaultPartialsInPlace(content: string): string {
  return DEFAULT_PARTIALS.reduce(
    (text, partial) => text.replaceAll(`{{> ${partial.name}}}\n`, partial.content),
    content,
  );
}

/**
 * @module client/connect/guide — the texts `kaizen connect` writes for agents: the short guide
 * (`.kaizen/AGENTS.md`), the pointer to it in `AGENTS.md`/`CLAUDE.md`, the Cursor rule, the Claude
 * Code skill and the OpenHands microagent (the guide's text under each one's front matter, so the
 * three never say different things). The full guide is docs/agents.md in the Kaizen repository.
 */
import { join } from "node:path";

/** Where the short guide goes in the connected repository; pointers name this path. */
export const GUIDE_PATH = ".kaizen/AGENTS.md";

/** Claude Code's project skill: loaded when a task mentions Kaizen or an issue `KZN-n`. */
export const SKILL_PATH = join(".claude", "skills", "kaizen", "SKILL.md");
/** OpenHands' keyword-triggered microagent. */
export const MICROAGENT_PATH = join(".openhands", "microagents", "kaizen.md");

/** What the guide says about the repository's Kaizen: shown to agents, so never a secret. */
export interface GuideFacts {
  projectName: string;
  projectId: string;
}

/**
 * The short agent guide: the loop with the CLI and with the MCP tools, and where the settings are.
 * @example agentGuide({ projectName: "shop", projectId: "prj_01J…" })
 */
export function agentGuide(facts: GuideFacts): string {
  return `# Working with Kaizen

This repository takes its work from Kaizen, project "${facts.projectName}" (\`${facts.projectId}\`).
Kaizen ranks the issues; you claim one, work it under a lease, report back with the dispatch token
the claim gave you, and rate the prompt you worked from.

The URL, API key and project are in \`.kaizen/env\`: git-ignored, read by the \`kaizen\` CLI and MCP
server. Never print the key, commit it, or paste it into a comment or summary.

## With the MCP tools (server \`kaizen\`)

1. \`claim_next_issue\`: take the next issue; the answer is your prompt, dispatch and token.
2. \`heartbeat\`: before the lease runs out (30 min by default), again while you work.
3. \`post_activity\`: say what you think, run and find as you go (\`thought\`, \`action\`, \`response\`,
   \`error\`). To ask a person, post an \`elicitation\` and read the answer with \`list_activities\`;
   if the project wants plans approved, post a \`plan\` first and wait the same way for the answer.
   \`add_comment\`: what you found, what you decided.
4. \`review_prompt\`: rate the prompt 1..5 for clarity, completeness, relevance, before completing.
5. \`complete_dispatch\` with \`done\` (summary, commits, pull requests) or \`failed\` (why);
   \`release_dispatch\` if you cannot work it at all.

## With the CLI

\`\`\`sh
kaizen next                                   # prints the prompt, the dispatch id and its token
export KAIZEN_DISPATCH_TOKEN=<token>          # the commands below then act as that dispatch
kaizen heartbeat <dispatch>
kaizen activity <dispatch> "what you ran and what it showed" --type action
kaizen activity <dispatch> "the question" --type elicitation   # then wait for the answer:
kaizen watch <dispatch> --after <its sequence> --until-answer
kaizen comment <KZN-n> "what you found"
kaizen review <prompt> --clarity 4 --completeness 4 --relevance 5 --feedback "what was missing"
kaizen complete <dispatch> --result done --summary "what changed, how it was verified" \\
  --commit "<sha> <message>" --pr "<pull request url>"
kaizen release <dispatch>                     # give it back untouched
\`\`\`

\`kaizen next\` exits 3 when nothing is eligible (or the project's daily cost budget is spent), and 4
when you hold as many of the project's dispatches as it allows one agent: finish one first. Name the
issue (\`KZN-<n>\`) in your pull request's title or body: when it is merged, Kaizen closes the issue.
A 409 \`Dispatch was stopped: <reason>\` means a person (or the project's budget per dispatch) stopped
you: stop working on the issue at once.
\`kaizen --help\` lists every command.
`;
}

/**
 * The lines appended once to `AGENTS.md` or `CLAUDE.md`.
 * @example pointerBlock() // "## Kaizen\n\nThis repository takes its work from Kaizen: …"
 */
export function pointerBlock(): string {
  return `## Kaizen

This repository takes its work from Kaizen: read \`${GUIDE_PATH}\` for how to claim an issue, report
progress and complete it (the \`kaizen\` MCP server and CLI).
`;
}

/**
 * `.cursor/rules/kaizen.mdc`: a rule that always applies and points Cursor's agent at the guide.
 * @example cursorRule()
 */
export function cursorRule(): string {
  return `---
description: How to take and report work through Kaizen
alwaysApply: true
---
${pointerBlock().replace(/^## Kaizen\n\n/, "")}`;
}

/** What a skill or microagent's front matter says: when the agent should load the guide. */
const WHEN =
  "How to take, report and complete work from Kaizen: claim an issue, heartbeat the lease, post activities, " +
  "ask a person, rate the prompt, complete with commits and pull requests. Use when a task names Kaizen, " +
  "a dispatch (dsp_…) or an issue KZN-n.";

/**
 * `.claude/skills/kaizen/SKILL.md`: Claude Code's skill format (front matter `name` and
 * `description`, then the instructions), holding the short guide.
 * @example claudeSkill({ projectName: "shop", projectId: "prj_01J…" }).startsWith("---\nname: kaizen\n")
 */
export function claudeSkill(facts: GuideFacts): string {
  return `---\nname: kaizen\ndescription: ${WHEN}\n---\n\n${agentGuide(facts)}`;
}

/**
 * `.openhands/microagents/kaizen.md`: an OpenHands knowledge microagent (front matter `name`,
 * `type`, `version`, `agent` and the `triggers` that load it), holding the short guide.
 * @example openHandsMicroagent({ projectName: "shop", projectId: "prj_01J…" }).includes("- KZN-")
 */
export function openHandsMicroagent(facts: GuideFacts): string {
  return `---
name: kaizen
type: knowledge
version: 1.0.0
agent: CodeActAgent
triggers:
- kaizen
- KZN-
- dispatch token
---

${agentGuide(facts)}`;
}

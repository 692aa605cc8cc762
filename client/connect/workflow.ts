/**
 * @module client/connect/workflow — the GitHub Actions workflow `kaizen connect --github-actions`
 * writes: it answers the repository dispatch a hosted runner sends (docs/agents.md#the-github-actions-workflow)
 * with `kaizen run --dispatch` around the agent command the user chose. Pure: text in, text out.
 *
 * The dispatch token arrives in the event's `client_payload`. The workflow never puts it in a step's
 * `env:` (GitHub prints a step's environment in its log): the first step reads it from the event file,
 * masks it, and only then hands it to later steps through `$GITHUB_ENV`.
 */
import { join } from "node:path";

/** Where the workflow goes in the connected repository. */
export const WORKFLOW_PATH = join(".github", "workflows", "kaizen.yml");

/** The first line of a workflow Kaizen wrote; a file without it is the user's and stays as it is. */
export const WORKFLOW_MARKER = "# Written by kaizen connect --github-actions.";

/** An agent the workflow knows how to install and run without questions on a throwaway machine. */
interface AgentPreset {
  install: string;
  command: string;
  /** Repository secrets the agent reads, passed to the step by name. */
  secrets: string[];
}

/**
 * The agents `--agent-command` names; anything else is taken as the command itself. Each runs with
 * its permission prompts off: the runner is a fresh virtual machine that exists for this one job.
 */
export const AGENT_PRESETS: Readonly<Record<string, AgentPreset>> = {
  "claude-code": {
    install: "npm install --global @anthropic-ai/claude-code",
    command: "claude -p --output-format stream-json --verbose --dangerously-skip-permissions",
    secrets: ["ANTHROPIC_API_KEY"],
  },
  codex: {
    install: "npm install --global @openai/codex",
    command: "codex exec --json --dangerously-bypass-approvals-and-sandbox -",
    secrets: ["OPENAI_API_KEY"],
  },
};

/** What the user chose: the agent (a preset's name or a command), where the CLI comes from, the event. */
export interface WorkflowChoice {
  agentCommand: string;
  /** An npm install spec for the kaizen CLI (`github:owner/kaizen`, a tarball URL, a registry name). */
  kaizenPackage: string;
  /** The runner's `eventType` (default `kaizen-dispatch`). */
  eventType: string;
}

/** The event type a runner sends unless it says otherwise. */
export const DEFAULT_EVENT_TYPE = "kaizen-dispatch";

/** GitHub's rule for an event type is loose; this keeps it to what needs no quoting anywhere. */
const EVENT_TYPE = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Why `choice` cannot be written, or undefined when it can.
 * @example choiceProblem({ agentCommand: "", kaizenPackage: "github:acme/kaizen", eventType: "kaizen-dispatch" }) // "--agent-command is empty"
 */
export function choiceProblem(choice: WorkflowChoice): string | undefined {
  if (choice.agentCommand.trim() === "") return "--agent-command is empty";
  if (/[\r\n]/.test(choice.agentCommand)) return "--agent-command must be one line";
  if (choice.kaizenPackage.trim() === "" || /\s/.test(choice.kaizenPackage)) {
    return "--kaizen-package must be one npm install spec, such as github:you/kaizen";
  }
  if (!EVENT_TYPE.test(choice.eventType))
    return "--event-type may hold only letters, digits, '_', '.' and '-' (1..100)";
  return undefined;
}

/**
 * The workflow's text for `choice`.
 * @example githubWorkflow({ agentCommand: "claude-code", kaizenPackage: "github:acme/kaizen", eventType: "kaizen-dispatch" })
 */
export function githubWorkflow(choice: WorkflowChoice): string {
  const preset = AGENT_PRESETS[choice.agentCommand];
  const command = preset?.command ?? choice.agentCommand.trim();
  const install = preset
    ? `
      - name: Install the agent
        run: ${preset.install}`
    : "";
  const secrets = (preset?.secrets ?? []).map((name) => `\n          ${name}: \${{ secrets.${name} }}`).join("");
  return `${WORKFLOW_MARKER}
# A Kaizen hosted runner for this repository hands each dispatch over with a repository_dispatch
# event; this job works it with \`kaizen run --dispatch\`, which heartbeats, reports and completes it.
# Edit freely: kaizen connect rewrites this file only while its first line is the one above.
name: Kaizen dispatch
run-name: Kaizen \${{ github.event.client_payload.issue }}
on:
  repository_dispatch:
    types: [${JSON.stringify(choice.eventType)}]
permissions:
  contents: write
  pull-requests: write
concurrency:
  group: kaizen-\${{ github.event.client_payload.dispatchId }}
jobs:
  work:
    runs-on: ubuntu-latest
    timeout-minutes: 120
    steps:
      - name: Take the dispatch from the event (its token masked before anything prints it)
        run: |
          token=$(jq -r '.client_payload.token // empty' "$GITHUB_EVENT_PATH")
          echo "::add-mask::$token"
          dispatch=$(jq -r '.client_payload.dispatchId // empty' "$GITHUB_EVENT_PATH")
          url=$(jq -r '.client_payload.kaizenUrl // empty' "$GITHUB_EVENT_PATH")
          [[ "$dispatch" =~ ^dsp_[0-9A-Za-z]+$ && "$url" =~ ^https?://[^[:space:]]+$ && -n "$token" ]] || { echo "Not a Kaizen dispatch event"; exit 1; }
          { echo "KAIZEN_DISPATCH_TOKEN=$token"; echo "KAIZEN_DISPATCH_ID=$dispatch"; echo "KAIZEN_URL=$url"; } >> "$GITHUB_ENV"
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Install the kaizen CLI
        run: npm install --global "$KAIZEN_CLI"
        env:
          KAIZEN_CLI: ${JSON.stringify(choice.kaizenPackage)}${install}
      - name: Commit as the agent
        run: |
          git config user.name "kaizen-agent"
          git config user.email "kaizen-agent@users.noreply.github.com"
      - name: Work the dispatch
        run: kaizen run --dispatch "$KAIZEN_DISPATCH_ID" -- ${command}
        env:
          GH_TOKEN: \${{ github.token }}${secrets}
`;
}

/**
 * The workflow file after `kaizen connect --github-actions`: written when missing or still Kaizen's
 * own (its first line is {@link WORKFLOW_MARKER}), left as it is when the user made it theirs.
 * @example workflowAfter(undefined, choice) === githubWorkflow(choice)
 */
export function workflowAfter(existing: string | undefined, choice: WorkflowChoice): string {
  if (existing !== undefined && !existing.startsWith(WORKFLOW_MARKER)) return existing;
  return githubWorkflow(choice);
}

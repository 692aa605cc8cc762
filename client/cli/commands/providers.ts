/**
 * @module client/cli/commands/providers — `kaizen providers test <github|sentry|posthog>`: one signed
 * sample webhook delivery to a webhook receiver, with the provider's own headers, and what Kaizen made of it.
 */
import { randomUUID } from "node:crypto";
import type { Argv } from "yargs";
import { receiverPath } from "../../../core/src/routes.js";
import { KaizenApiError, type Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { emit, formatFields, paint, statusStyle } from "../output.js";
import {
  PROVIDER_NAMES,
  PROVIDERS,
  type ProviderName,
  SAMPLE_ISSUE_NUMBER,
  sampleWebhookDelivery,
} from "../provider-samples.js";
import { EXIT, UsageError } from "../runtime.js";

/** Shown by `kaizen providers test --help`. */
const TEST_EPILOGUE = `The secret: --secret, else the variable the server reads for that receiver:
  github   CODEHOST_WEBHOOK_SECRET     (the webhook's Secret)
  sentry   ERRORTRACKER_CLIENT_SECRET  (the integration's Client Secret)
  posthog  ANALYTICS_WEBHOOK_SECRET    (the destination's X-Analytics-Secret header)
Without --open it sends what the provider sends at setup: GitHub ping, Sentry
installation.created, PostHog kaizen_test at low severity; it is recorded and opens no issue.
--open sends GitHub issues.opened (always #${SAMPLE_ISSUE_NUMBER} of kaizen-test/setup-check), Sentry
issue.created or PostHog kaizen_test_alert at high severity: the first run opens an issue in
triage, later runs join that same issue instead of filling triage.
Exit status 0 when the receiver took it (2xx), 1 otherwise, 2 without a secret. No API key needed.`;

/** Where the secret came from, to say so when the server refuses it. */
interface Secret {
  value: string;
  source: string;
}

/** `--secret`, else the server's own variable for the receiver; none is a usage error naming both. */
function resolveSecret(provider: ProviderName, given: string | undefined, env: NodeJS.ProcessEnv): Secret {
  if (given !== undefined && given !== "") return { value: given, source: "--secret" };
  const variable = PROVIDERS[provider].secretVariable;
  const fromEnv = env[variable];
  // The server ignores a blank variable too (core/src/config.ts): it configures nothing.
  if (fromEnv !== undefined && fromEnv.trim() !== "") return { value: fromEnv, source: variable };
  throw new UsageError(
    `No secret to sign the ${PROVIDERS[provider].title} test delivery: pass --secret <value> or set ${variable} (the value the server has).`,
  );
}

/**
 * What to do about a refused or failed webhook delivery, for the failures a setup runs into; undefined for
 * any other (printed as every command prints an API error).
 */
function webhookDeliveryHint(
  error: KaizenApiError,
  provider: ProviderName,
  secret: Secret,
  url: string,
): string | undefined {
  const { title, secretVariable } = PROVIDERS[provider];
  if (error.status === 0) return `the Kaizen server is not reachable at ${url}: start it (npm start) or set KAIZEN_URL`;
  if (error.status === 401) {
    const which = provider === "sentry" ? ", which for Sentry is the integration's Client Secret" : "";
    return `the secret (from ${secret.source}) is not the server's ${secretVariable}${which}: give ${title} and this command the value the server has`;
  }
  if (error.status === 500 && error.error.endsWith("is not configured")) {
    return `start the server with ${secretVariable} set (${secretVariable}=… npm start), or set it where it is deployed`;
  }
  return undefined;
}

/** A failed webhook delivery as stderr shows it: the API's error as usual, with the hint in place of the API key's. */
function webhookDeliveryFailure(error: KaizenApiError, hint: string): string {
  const lines = [error.status === 0 ? `kaizen: ${error.error}` : `kaizen: ${error.status} ${error.error}`, `  ${hint}`];
  if (error.requestId) lines.push(`  (request ${error.requestId})`);
  return lines.join("\n");
}

/** What Kaizen made of the webhook delivery, as one block: the answer, then the signal and its issue. */
function formatTestResult(
  result: Schema<"IngestResult">,
  heading: { provider: ProviderName; event: string; url: string; status: string },
  colour: boolean,
): string {
  const { signal, issue } = result;
  const answer = paint(colour, statusStyle("ok"), heading.status);
  return [
    `${PROVIDERS[heading.provider].title} ${heading.event} → ${heading.url}: ${answer}`,
    formatFields(
      [
        ["signal", signal.id],
        ["type", signal.type],
        ["fingerprint", signal.fingerprint],
        ["severity", signal.severity, statusStyle(signal.severity)],
        ["action", signal.action],
        ["duplicate", result.duplicate ? "yes (this delivery id was already received)" : "no"],
        ["issue", issue ? `${issue.identifier} (${issue.status}) "${issue.title}"` : null, statusStyle(issue?.status)],
        ["delivery", signal.deliveryId],
      ],
      colour,
    ),
  ].join("\n");
}

/** Registers `kaizen providers test`. */
export function registerProviders(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.providers, (y) =>
    y
      .command(
        ...define(
          "test <provider>",
          "Send one signed sample delivery with the provider's own headers and show what Kaizen made of it",
          (y) =>
            y
              .positional("provider", {
                type: "string",
                choices: PROVIDER_NAMES,
                demandOption: true,
                describe: "Whose delivery to imitate",
              })
              .option("secret", {
                type: "string",
                describe: "The receiver's secret (default: the server's variable for it, below)",
              })
              .option("open", {
                type: "boolean",
                default: false,
                describe: "Send a sample that opens an issue (repeated runs join the same one)",
              })
              .epilogue(TEST_EPILOGUE),
          async (args, { client, connection, io, output }) => {
            const provider = args.provider as ProviderName;
            const secret = resolveSecret(provider, args.secret, io.env);
            const url = `${connection.url.replace(/\/+$/, "")}${receiverPath(PROVIDERS[provider].receiver)}`;
            const delivery = sampleWebhookDelivery(provider, {
              open: args.open === true,
              secret: secret.value,
              deliveryId: randomUUID(),
              now: new Date(),
              url,
            });
            try {
              const { data, response } = await client("none").POST(delivery.path, {
                // The receivers take any JSON object (their schema names no fields): what goes out is
                // the signed text itself, byte for byte, so the signature holds.
                body: {},
                bodySerializer: () => delivery.body,
                headers: delivery.headers,
              });
              const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
              emit(output, data?.data, (result) =>
                result
                  ? formatTestResult(result, { provider, event: delivery.eventType, url, status }, output.colour)
                  : status,
              );
              return EXIT.ok;
            } catch (error) {
              const hint =
                error instanceof KaizenApiError ? webhookDeliveryHint(error, provider, secret, url) : undefined;
              if (!(error instanceof KaizenApiError) || hint === undefined) throw error;
              output.err(webhookDeliveryFailure(error, hint));
              return EXIT.apiError;
            }
          },
        ),
      )
      .demandCommand(1, "Which providers command? (test)"),
  );
}

/**
 * @module tests/unit/infra/infra — evaluates infra/*.ts and sst.config.ts against the SST recorder and
 * checks what would be deployed against core's route table, table definition and link names.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CORS_POLICY, type Config, LINKED, loadConfig } from "../../../core/src/config.js";
import { entitiesOf } from "../../../core/src/db/item-kinds.js";
import { TABLE_DEFINITION } from "../../../core/src/db/table.js";
import { EVENT_SOURCE_ENTITIES } from "../../../core/src/events/derive.js";
import { LAMBDA_BUNDLE_DEFINE } from "../../../core/src/openapi/text.js";
import { allRoutes, DEFAULT_ROUTE_FAMILY, FAMILIES, type Family, gatewayMethods } from "../../../core/src/routes.js";
import { HANDOFF_SOURCE_ENTITIES } from "../../../core/src/runners/handoff-rules.js";
import {
  applyTransform,
  gatewayCors,
  installSstRecorder,
  type RecordedComponent,
  RecordedOutput,
  type RecordedRoute,
  type Recording,
  type SubscriberFunction,
  uninstallSstRecorder,
} from "../../helpers/sst-recorder.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** infra/events.ts: the retry queue, the dead-letter queue, the stream's and the queue's subscriptions, the sweep schedule. */
const EVENT_COMPONENTS = 5;
/** infra/sweeps.ts: the verification sweep's schedule. */
const SWEEP_COMPONENTS = 1;
/** infra/handoffs.ts: hosted runners' stream subscription and their sweep's schedule. */
const HANDOFF_COMPONENTS = 2;
const SERVICE_API_KEY = `kaizen_${"ab".repeat(32)}`;
const SECRET_NAMES = [
  LINKED.serviceApiKey,
  LINKED.serviceApiKeyPrevious,
  LINKED.codehostWebhookSecret,
  LINKED.errortrackerClientSecret,
  LINKED.analyticsWebhookSecret,
];

interface RoutableApi {
  url: unknown;
  route(rawRoute: string, handler: unknown): void;
}
interface FunctionInstance {
  arn: unknown;
}
interface ApiModule {
  api: RoutableApi;
  functions: Record<Family, FunctionInstance>;
  gatewayPath(honoPath: string): string;
}
interface FunctionArgs {
  handler: string;
  runtime: string;
  architecture: string;
  memory: string;
  timeout: string;
  link: unknown[];
  environment?: Record<string, unknown>;
  nodejs?: { format?: string; minify?: boolean };
}
interface ApiArgs {
  transform?: { stage?: unknown };
}
type FunctionConstructor = new (name: string, args: Record<string, unknown>) => FunctionInstance;
interface SstConfig {
  app(input?: { stage?: string }): Record<string, unknown>;
  run(): Promise<Record<string, unknown>>;
}

/** Imports a repo file with a fresh module registry, so its top level runs against the current recorder. */
async function importFresh<T>(relativePath: string): Promise<T> {
  vi.resetModules();
  return (await import(/* @vite-ignore */ join(ROOT, relativePath))) as T;
}

interface EvaluatedInfra extends ApiModule {
  recording: Recording;
}

interface DeployInput {
  /** Secret values as `sst secret set` stored them for the stage. */
  secrets?: Record<string, string>;
  /** PUBLIC_BASE_URL in the environment of `sst deploy`; unset whatever the shell running the tests has. */
  publicBaseUrl?: string;
  /** CORS_ALLOWED_ORIGINS in the environment of `sst deploy`; likewise unset unless given. */
  corsAllowedOrigins?: string;
}

/** Sets the deploy-time environment for one case; `vi.unstubAllEnvs()` after each case restores it. */
function stubDeployEnvironment(publicBaseUrl: string | undefined, corsAllowedOrigins?: string): void {
  vi.stubEnv("PUBLIC_BASE_URL", publicBaseUrl);
  vi.stubEnv("CORS_ALLOWED_ORIGINS", corsAllowedOrigins);
}

async function evaluateInfra({
  secrets = { [LINKED.serviceApiKey]: SERVICE_API_KEY },
  publicBaseUrl,
  corsAllowedOrigins,
}: DeployInput = {}): Promise<EvaluatedInfra> {
  stubDeployEnvironment(publicBaseUrl, corsAllowedOrigins);
  const recording = installSstRecorder({ secrets });
  vi.resetModules();
  // In sst.config.ts's order, each imported on its own: a module only api.ts happened to import
  // would otherwise vanish from the recording the moment api.ts stopped using it.
  for (const module of [
    "infra/table.ts",
    "infra/secrets.ts",
    "infra/events.ts",
    "infra/sweeps.ts",
    "infra/handoffs.ts",
  ]) {
    await import(/* @vite-ignore */ join(ROOT, module));
  }
  const module = (await import(/* @vite-ignore */ join(ROOT, "infra/api.ts"))) as ApiModule;
  return { recording, ...module };
}

/**
 * What is wrong with these registrations against the route table (every route once, to its own
 * family's function, plus `$default` to the default family); empty when they agree.
 */
/** Every route of the table, GETs twice (GET and HEAD): what the gateway must have besides `$default`. */
const GATEWAY_ROUTE_COUNT = allRoutes().reduce((sum, route) => sum + gatewayMethods(route).length, 0);

function routeProblems(
  routes: RecordedRoute[],
  arnOf: Record<Family, unknown>,
  toGatewayPath: (honoPath: string) => string,
): string[] {
  const expected = new Map<string, unknown>([
    ...allRoutes().flatMap((route) =>
      gatewayMethods(route).map((method) => [`${method} ${toGatewayPath(route.path)}`, arnOf[route.family]] as const),
    ),
    ["$default", arnOf[DEFAULT_ROUTE_FAMILY]],
  ]);
  const problems: string[] = [];
  for (const [key, handler] of expected) {
    const registered = routes.filter((route) => route.rawRoute === key);
    if (registered.length === 0) problems.push(`${key} is not registered`);
    if (registered.length > 1) problems.push(`${key} is registered ${registered.length} times`);
    for (const route of registered) {
      if (route.handler !== handler) problems.push(`${key} goes to ${String(route.handler)}, not ${String(handler)}`);
    }
  }
  for (const route of routes) {
    if (!expected.has(route.rawRoute)) problems.push(`${route.rawRoute} is not in the route table`);
  }
  return problems;
}

/** The functions the events' stream subscription, retry-queue subscription and sweep schedule run. */
function subscriberFunctions(recording: Recording): { owner: RecordedComponent; fn: SubscriberFunction }[] {
  return [...recording.ofKind("sst.aws.DynamoLambdaSubscriber"), ...recording.ofKind("sst.aws.QueueLambdaSubscriber")]
    .map((owner) => ({ owner, fn: (owner.args as { subscriber: SubscriberFunction }).subscriber }))
    .concat(
      recording
        .ofKind("sst.aws.Cron")
        .map((owner) => ({ owner, fn: (owner.args as { function: SubscriberFunction }).function })),
    );
}

/** The arguments of the table's stream subscription `name` (`table.subscribe(name, …)`), the only one so named. */
function tableSubscription(recording: Recording, name: string) {
  const subscription = only(
    recording
      .ofKind("sst.aws.DynamoLambdaSubscriber")
      .filter((owner) => owner.name === `${LINKED.table}Subscriber${name}`),
  );
  return subscription.args as {
    subscriber: SubscriberFunction;
    filters: unknown[];
    transform: { eventSourceMapping: Record<string, unknown> };
  };
}

function only(components: RecordedComponent[]): RecordedComponent {
  expect(components).toHaveLength(1);
  return components[0] as RecordedComponent;
}

/** A made-up deployed value for each output a function reads, as `Resource` would hold it once deployed. */
const DEPLOYED_OUTPUTS: Record<string, string> = {
  "Table.name": "kaizen-prod-TableAbc",
  "Api.url": "https://abc123.execute-api.us-east-1.amazonaws.com",
};

/** The configuration a recorded function would load once deployed: its links and its environment. */
function deployedConfig(recording: Recording, fn: RecordedComponent): Config {
  const deployed = (value: unknown): unknown => {
    if (!(value instanceof RecordedOutput)) return value;
    const resolved = DEPLOYED_OUTPUTS[String(value)];
    if (resolved === undefined) throw new Error(`No deployed value for ${String(value)}`);
    return resolved;
  };
  const linked = Object.fromEntries(
    Object.entries(recording.linkedResources(fn)).map(([name, properties]) => [
      name,
      Object.fromEntries(Object.entries(properties).map(([property, value]) => [property, deployed(value)])),
    ]),
  );
  const env = (fn.args as FunctionArgs).environment ?? {};
  return loadConfig({ env: env as Record<string, string>, linked });
}

afterEach(() => {
  uninstallSstRecorder();
  vi.unstubAllEnvs();
});

describe("infra/*.ts evaluated against the SST recorder", () => {
  let infra: EvaluatedInfra;
  beforeEach(async () => {
    infra = await evaluateInfra();
  });

  it("creates exactly one table, the five secrets, one function per family, one API, the events' five parts, the sweep and the hand-offs' two", () => {
    const { recording } = infra;
    expect(
      recording
        .ofKind("sst.aws.Queue")
        .map((queue) => queue.name)
        .sort(),
    ).toEqual([LINKED.eventRetries, "EventStreamDeadLetters"].sort());
    expect(
      recording
        .ofKind("sst.aws.DynamoLambdaSubscriber")
        .map(({ name }) => name)
        .sort(),
    ).toEqual([`${LINKED.table}SubscriberEvents`, `${LINKED.table}SubscriberHandoffs`]);
    expect(recording.ofKind("sst.aws.QueueLambdaSubscriber")).toHaveLength(1);
    expect(
      recording
        .ofKind("sst.aws.Cron")
        .map((cron) => cron.name)
        .sort(),
    ).toEqual(["EventSweep", "RunnerSweep", "VerificationSweep"]);
    expect(recording.ofKind("sst.aws.Dynamo")).toHaveLength(1);
    expect(recording.ofKind("sst.Secret")).toHaveLength(SECRET_NAMES.length);
    expect(recording.ofKind("sst.aws.Function")).toHaveLength(FAMILIES.length);
    expect(recording.ofKind("sst.aws.ApiGatewayV2")).toHaveLength(1);
    expect(recording.components).toHaveLength(
      1 + SECRET_NAMES.length + FAMILIES.length + 1 + EVENT_COMPONENTS + SWEEP_COMPONENTS + HANDOFF_COMPONENTS,
    );
  });

  describe("table", () => {
    it("is named as core reads it and built from TABLE_DEFINITION alone", () => {
      const table = only(infra.recording.ofKind("sst.aws.Dynamo"));
      expect(table.name).toBe(LINKED.table);
      expect(table.args).toStrictEqual({
        fields: TABLE_DEFINITION.fields,
        primaryIndex: TABLE_DEFINITION.primaryIndex,
        globalIndexes: TABLE_DEFINITION.globalIndexes,
        ttl: TABLE_DEFINITION.ttl,
        stream: TABLE_DEFINITION.stream,
      });
    });

    it("streams every change with the item's image before and after", () => {
      const table = only(infra.recording.ofKind("sst.aws.Dynamo"));
      expect((table.args as { stream?: unknown }).stream).toBe("new-and-old-images");
    });

    it("only indexes declared fields, with projections SST accepts", () => {
      const { fields, primaryIndex, globalIndexes } = only(infra.recording.ofKind("sst.aws.Dynamo")).args as {
        fields: Record<string, string>;
        primaryIndex: { hashKey: string; rangeKey: string };
        globalIndexes: Record<string, { hashKey: string; rangeKey: string; projection: unknown }>;
      };
      const keys = [primaryIndex, ...Object.values(globalIndexes)].flatMap((index) => [index.hashKey, index.rangeKey]);
      for (const key of keys) expect(Object.keys(fields)).toContain(key);
      for (const type of Object.values(fields)) expect(["string", "number", "binary"]).toContain(type);
      for (const index of Object.values(globalIndexes)) {
        expect(index.projection === "all" || index.projection === "keys-only" || Array.isArray(index.projection)).toBe(
          true,
        );
      }
    });
  });

  describe("secrets", () => {
    it("are exactly the five secrets core reads, by their LINKED names", () => {
      const names = infra.recording.ofKind("sst.Secret").map((secret) => secret.name);
      expect(names.sort()).toEqual([...SECRET_NAMES].sort());
    });

    it("leave ServiceApiKey without a placeholder and default the webhook secrets to empty", () => {
      const placeholders = Object.fromEntries(
        infra.recording
          .ofKind("sst.Secret")
          .map((secret) => [secret.name, (secret.args as { placeholder?: string }).placeholder]),
      );
      expect(placeholders).toEqual({
        [LINKED.serviceApiKey]: undefined,
        [LINKED.serviceApiKeyPrevious]: "",
        [LINKED.codehostWebhookSecret]: "",
        [LINKED.errortrackerClientSecret]: "",
        [LINKED.analyticsWebhookSecret]: "",
      });
    });

    it("refuse to deploy a stage whose ServiceApiKey is not set", async () => {
      await expect(evaluateInfra({ secrets: {} })).rejects.toThrow(`sst secret set ${LINKED.serviceApiKey}`);
    });

    it("deploy unset webhook secrets as values core reads as not configured", () => {
      const linked = Object.fromEntries(
        infra.recording.ofKind("sst.Secret").map((secret) => [secret.name, secret.instance as { value: string }]),
      );
      const config = loadConfig({ env: {}, linked });
      expect(config.serviceApiKey).toBe(SERVICE_API_KEY);
      expect(config.serviceApiKeyPrevious).toBeUndefined();
      expect(config.webhookSecrets).toEqual({ codehost: undefined, errortracker: undefined, analytics: undefined });
    });
  });

  describe("outbound events", () => {
    it("subscribe functions/events.handler to the table's stream, filtered to the items events come from", () => {
      const table = only(infra.recording.ofKind("sst.aws.Dynamo"));
      expect((table.args as { stream?: string }).stream).toBe("new-and-old-images");
      const args = tableSubscription(infra.recording, "Events");
      expect(args.subscriber.handler).toBe("functions/events.handler");
      expect(args.filters).toEqual([{ dynamodb: { NewImage: { entity: { S: [...EVENT_SOURCE_ENTITIES] } } } }]);
      const mapping = args.transform.eventSourceMapping;
      expect(mapping.batchSize).toBe(100);
      expect(mapping.bisectBatchOnFunctionError).toBe(true);
      expect(mapping.maximumRetryAttempts).toBeGreaterThan(0);
      // What still fails goes to the dead-letter queue, which the function's role may send to.
      const deadLetters = only(
        infra.recording.ofKind("sst.aws.Queue").filter((queue) => queue.name === "EventStreamDeadLetters"),
      );
      expect(mapping.destinationConfig).toEqual({
        onFailure: { destinationArn: (deadLetters.instance as { arn: unknown }).arn },
      });
      expect(args.subscriber.link).toContain(deadLetters.instance);
      // The events function hands nothing to hosted runners (infra/handoffs.ts does), so it needs no API url.
      expect((args.subscriber.link ?? []).map((item) => infra.recording.byInstance(item).name)).not.toContain(
        LINKED.api,
      );
    });

    it("wake retries through the retry queue and sweep every 5 minutes, with the queue's url in the config", () => {
      const retries = only(infra.recording.ofKind("sst.aws.QueueLambdaSubscriber"));
      expect(retries.name).toBe(`${LINKED.eventRetries}Subscriber`);
      expect((retries.args as { subscriber: SubscriberFunction }).subscriber.handler).toBe("functions/events.retry");
      const schedule = only(infra.recording.ofKind("sst.aws.Cron").filter((cron) => cron.name === "EventSweep"));
      expect(schedule.args).toMatchObject({
        schedule: "rate(5 minutes)",
        function: { handler: "functions/events.retry" },
      });
      const queue = only(infra.recording.ofKind("sst.aws.Queue").filter((q) => q.name === LINKED.eventRetries));
      const eventFunctions = subscriberFunctions(infra.recording).filter(({ fn }) =>
        fn.handler.startsWith("functions/events."),
      );
      expect(eventFunctions).toHaveLength(3);
      for (const { owner, fn } of eventFunctions) {
        const linked = (fn.link ?? []).map((item) => infra.recording.byInstance(item).name);
        expect(linked, owner.name).toContain(LINKED.table);
        expect(linked, owner.name).toContain(LINKED.eventRetries);
        expect(fn.nodejs, owner.name).toMatchObject({ format: "esm" });
        const config = loadConfig({
          env: {},
          linked: {
            [LINKED.table]: { name: "kaizen-prod-TableAbc" },
            [LINKED.eventRetries]: { url: "https://sqs.us-east-1.amazonaws.com/1/EventRetries" },
          },
        });
        expect(config.eventRetryQueueUrl).toBe("https://sqs.us-east-1.amazonaws.com/1/EventRetries");
      }
      expect((queue.instance as { url: unknown }).url).toBeInstanceOf(RecordedOutput);
    });

    it("refuse a subscription to a table without a stream, and a queue that would hide a message from a slow function", () => {
      installSstRecorder();
      const globals = globalThis as unknown as {
        sst: {
          aws: {
            Dynamo: new (n: string, a: unknown) => { subscribe(...a: unknown[]): unknown };
            Queue: new (n: string, a?: unknown) => { subscribe(...a: unknown[]): unknown };
          };
        };
      };
      const plain = new globals.sst.aws.Dynamo("Plain", { fields: {} });
      expect(() => plain.subscribe("X", "functions/events.handler")).toThrow("because stream is not enabled");
      const queue = new globals.sst.aws.Queue("Short");
      expect(() => queue.subscribe({ handler: "functions/events.retry", timeout: "60 seconds" })).toThrow(
        "visibility timeout",
      );
    });
  });

  describe("sweeps", () => {
    it("end the quiet watches of merged fixes every minute, with the table linked and nothing else", () => {
      const schedule = only(infra.recording.ofKind("sst.aws.Cron").filter((cron) => cron.name === "VerificationSweep"));
      const fn = (schedule.args as { function: SubscriberFunction }).function;
      expect(schedule.args).toMatchObject({
        schedule: "rate(1 minute)",
        function: { handler: "functions/sweeps.verify" },
      });
      expect((fn.link ?? []).map((item) => infra.recording.byInstance(item).name)).toEqual([LINKED.table]);
      expect(fn.nodejs).toMatchObject({ format: "esm" });
      expect(existsSync(join(ROOT, "functions", "sweeps.ts"))).toBe(true);
    });
  });

  describe("hosted runners' hand-offs", () => {
    it("subscribe functions/handoffs.handler to the table's stream, filtered to issues, dispatches and runners", () => {
      const args = tableSubscription(infra.recording, "Handoffs");
      expect(args.subscriber.handler).toBe("functions/handoffs.handler");
      const entities = { entity: { S: [...HANDOFF_SOURCE_ENTITIES] } };
      expect(args.filters).toEqual([{ dynamodb: { NewImage: entities } }, { dynamodb: { OldImage: entities } }]);
      expect([...HANDOFF_SOURCE_ENTITIES].sort()).toEqual(
        [...entitiesOf("issue"), ...entitiesOf("dispatch"), ...entitiesOf("runner")].sort(),
      );
      // A hand-off never fails its batch; the sweep makes up for what a batch that still fails missed.
      expect(args.transform.eventSourceMapping).toMatchObject({ batchSize: 100, maximumRetryAttempts: 1 });
      expect((args.subscriber.link ?? []).map((item) => infra.recording.byInstance(item).name)).toEqual([
        LINKED.table,
        LINKED.api,
      ]);
    });

    it("fill hosted runners up every minute, with the table and the API (for the URL agents are sent) linked", () => {
      const schedule = only(infra.recording.ofKind("sst.aws.Cron").filter((cron) => cron.name === "RunnerSweep"));
      const fn = (schedule.args as { function: SubscriberFunction }).function;
      expect(schedule.args).toMatchObject({
        schedule: "rate(1 minute)",
        function: { handler: "functions/handoffs.sweep" },
      });
      expect((fn.link ?? []).map((item) => infra.recording.byInstance(item).name)).toEqual([LINKED.table, LINKED.api]);
    });
  });

  describe("functions", () => {
    it("are exactly one per family, each from its own handler file", () => {
      for (const family of FAMILIES) {
        const recorded = infra.recording.byInstance(infra.functions[family]);
        expect(recorded.kind).toBe("sst.aws.Function");
        expect((recorded.args as FunctionArgs).handler).toBe(`functions/${family}.handler`);
        expect(existsSync(join(ROOT, "functions", `${family}.ts`))).toBe(true);
      }
      const handlers = infra.recording.ofKind("sst.aws.Function").map((fn) => (fn.args as FunctionArgs).handler);
      expect(new Set(handlers).size).toBe(FAMILIES.length);
    });

    it("are bundled as scripts/build.ts bundles them, the subscribers' and schedules' too: the Lambda define folds the OpenAPI text and the conflict emulator away", () => {
      const bundled = [
        ...infra.recording
          .ofKind("sst.aws.Function")
          .map((fn) => ({ name: fn.name, nodejs: (fn.args as FunctionArgs).nodejs })),
        ...subscriberFunctions(infra.recording).map(({ owner, fn }) => ({ name: owner.name, nodejs: fn.nodejs })),
      ];
      expect(bundled.length).toBe(FAMILIES.length + 6);
      for (const { name, nodejs } of bundled) {
        expect(nodejs, name).toEqual({
          format: "esm",
          minify: true,
          sourcemap: true,
          splitting: true,
          esbuild: { define: LAMBDA_BUNDLE_DEFINE },
        });
      }
    });

    it("run the stream's, the queue's and the schedules' handlers on Node 20 / arm64 with a minute for a batch or a sweep", () => {
      const background = subscriberFunctions(infra.recording);
      expect(background).toHaveLength(6);
      for (const { owner, fn } of background) {
        expect(fn, owner.name).toMatchObject({
          runtime: "nodejs20.x",
          architecture: "arm64",
          memory: "512 MB",
          timeout: "60 seconds",
        });
      }
    });

    it("cover every handler file in functions/, with the events' subscribers and schedule", () => {
      const files = readdirSync(join(ROOT, "functions")).filter((file) => file.endsWith(".ts"));
      const handlers = [
        ...infra.recording.ofKind("sst.aws.Function").map((fn) => (fn.args as FunctionArgs).handler),
        ...subscriberFunctions(infra.recording).map(({ fn }) => fn.handler),
      ];
      const handlerFiles = new Set(
        handlers.map((handler) => `${handler.replace(/^functions\//, "").replace(/\.\w+$/, "")}.ts`),
      );
      expect([...handlerFiles].sort()).toEqual(files.sort());
    });

    it("link the table, all five secrets and the API, and nothing else", () => {
      for (const fn of infra.recording.ofKind("sst.aws.Function")) {
        const linked = (fn.args as FunctionArgs).link.map((item) => infra.recording.byInstance(item).name);
        expect(linked.sort(), fn.name).toEqual([LINKED.table, LINKED.api, ...SECRET_NAMES].sort());
      }
    });

    it("without PUBLIC_BASE_URL at deploy, set no environment for it and reach the API's own url by the link", () => {
      const api = only(infra.recording.ofKind("sst.aws.ApiGatewayV2"));
      const apiUrl = (api.instance as RoutableApi).url;
      expect(apiUrl).toBeInstanceOf(RecordedOutput);
      for (const fn of infra.recording.ofKind("sst.aws.Function")) {
        expect((fn.args as FunctionArgs).environment?.PUBLIC_BASE_URL, fn.name).toBeUndefined();
        expect(infra.recording.linkedResources(fn)[LINKED.api], fn.name).toEqual({ url: apiUrl });
        const config = deployedConfig(infra.recording, fn);
        expect(config.publicBaseUrl, fn.name).toBe(DEPLOYED_OUTPUTS["Api.url"]);
        expect(config.tableName, fn.name).toBe(DEPLOYED_OUTPUTS["Table.name"]);
      }
    });

    it("run ESM on Node 20 / arm64 and finish inside API Gateway's 30 s integration limit", () => {
      for (const fn of infra.recording.ofKind("sst.aws.Function")) {
        const args = fn.args as FunctionArgs;
        expect(args.runtime).toBe("nodejs20.x");
        expect(args.architecture).toBe("arm64");
        expect(args.nodejs?.format).toBe("esm");
        const timeout = /^(\d+) seconds?$/.exec(args.timeout);
        expect(timeout, args.timeout).not.toBeNull();
        expect(Number(timeout?.[1])).toBeLessThanOrEqual(30);
        expect(args.memory).toMatch(/^\d+ MB$/);
      }
    });
  });

  describe("PUBLIC_BASE_URL set at deploy time (a custom domain)", () => {
    it("is passed to every function as exactly that value, and wins over the linked API url", async () => {
      const { recording } = await evaluateInfra({ publicBaseUrl: "https://kaizen.example.com" });
      const functions = recording.ofKind("sst.aws.Function");
      expect(functions).toHaveLength(FAMILIES.length);
      for (const fn of functions) {
        expect((fn.args as FunctionArgs).environment, fn.name).toEqual({
          PUBLIC_BASE_URL: "https://kaizen.example.com",
        });
        expect(deployedConfig(recording, fn).publicBaseUrl, fn.name).toBe("https://kaizen.example.com");
      }
    });

    it("is passed to the hosted runners' hand-offs, which name it to agents, and to no other background function", async () => {
      const { recording } = await evaluateInfra({ publicBaseUrl: "https://kaizen.example.com" });
      const background = subscriberFunctions(recording);
      const handoffs = background.filter(({ fn }) => fn.handler.startsWith("functions/handoffs."));
      expect(handoffs).toHaveLength(2);
      for (const { owner, fn } of background) {
        expect(fn.environment, owner.name).toEqual(
          handoffs.some((handoff) => handoff.fn === fn) ? { PUBLIC_BASE_URL: "https://kaizen.example.com" } : undefined,
        );
      }
    });

    it.each(["kaizen.example.com", "ftp://kaizen.example.com", "https//kaizen.example.com"])(
      "stops the deploy when it is not an http(s) URL (%s)",
      async (publicBaseUrl) => {
        await expect(evaluateInfra({ publicBaseUrl })).rejects.toThrow(
          `PUBLIC_BASE_URL must be an http(s) URL, got "${publicBaseUrl}"`,
        );
      },
    );
  });

  describe("API", () => {
    it("registers every route of the table once, to its own family's function, and $default to the default family", () => {
      const arnOf = Object.fromEntries(FAMILIES.map((family) => [family, infra.functions[family].arn])) as Record<
        Family,
        unknown
      >;
      expect(routeProblems(infra.recording.routes, arnOf, infra.gatewayPath)).toEqual([]);
      expect(infra.recording.routes).toHaveLength(GATEWAY_ROUTE_COUNT + 1);
      const api = only(infra.recording.ofKind("sst.aws.ApiGatewayV2"));
      for (const route of infra.recording.routes) expect(route.api).toBe(api.name);
    });

    it("leaves no function without a route", () => {
      for (const family of FAMILIES) {
        const served = infra.recording.routes.filter((route) => route.handler === infra.functions[family].arn);
        expect(served.length, family).toBeGreaterThan(0);
      }
    });

    it("throttles every route through the stage's default route settings", () => {
      const api = only(infra.recording.ofKind("sst.aws.ApiGatewayV2"));
      // What SST's ApiGatewayV2 passes to the stage before applying `transform.stage`.
      const sstStage = { apiId: "api-id", autoDeploy: true, name: "$default" };
      const stage = applyTransform((api.args as ApiArgs).transform?.stage, sstStage) as typeof sstStage & {
        defaultRouteSettings?: { throttlingBurstLimit?: number; throttlingRateLimit?: number };
      };
      expect(stage).toMatchObject(sstStage);
      const { throttlingBurstLimit, throttlingRateLimit } = stage.defaultRouteSettings ?? {};
      expect(throttlingBurstLimit).toBeGreaterThan(0);
      expect(throttlingRateLimit).toBeGreaterThan(0);
      expect(throttlingBurstLimit).toBeGreaterThanOrEqual(throttlingRateLimit ?? Number.POSITIVE_INFINITY);
    });
  });

  describe("CORS at the gateway (CORS_ALLOWED_ORIGINS set at deploy time)", () => {
    const corsOf = (recording: Recording): unknown =>
      (only(recording.ofKind("sst.aws.ApiGatewayV2")).args as { cors?: unknown }).cors;

    it("without it, turns the gateway's CORS off explicitly (SST's default would allow every origin)", () => {
      expect(corsOf(infra.recording)).toBe(false);
      expect(gatewayCors("Api", corsOf(infra.recording))).toEqual({});
    });

    it("with a list, allows exactly those origins with core's methods, headers and max age", async () => {
      const { recording } = await evaluateInfra({
        corsAllowedOrigins: "https://dash.example.com, http://localhost:5173",
      });
      const expected = {
        allowOrigins: ["https://dash.example.com", "http://localhost:5173"],
        allowMethods: [...CORS_POLICY.allowMethods],
        allowHeaders: [...CORS_POLICY.allowHeaders],
        exposeHeaders: [...CORS_POLICY.exposeHeaders],
      };
      expect(corsOf(recording)).toEqual({ ...expected, maxAge: `${CORS_POLICY.maxAgeSeconds} seconds` });
      // What API Gateway ends up with: no SST wildcard left standing in for a field infra forgot.
      expect(gatewayCors("Api", corsOf(recording))).toEqual({ ...expected, maxAge: CORS_POLICY.maxAgeSeconds });
      expect(CORS_POLICY.maxAgeSeconds).toBe(600);
    });

    it.each([
      ["*", '"*" is not allowed'],
      ["https://dash.example.com/", "CORS_ALLOWED_ORIGINS must list exact origins"],
    ])("stops the deploy on a value core refuses (%s)", async (corsAllowedOrigins, message) => {
      await expect(evaluateInfra({ corsAllowedOrigins })).rejects.toThrow(message);
    });

    it("the recorder knows SST's defaults and refuses what SST or API Gateway would", () => {
      expect(gatewayCors("Api", undefined)).toEqual({ allowHeaders: ["*"], allowMethods: ["*"], allowOrigins: ["*"] });
      expect(gatewayCors("Api", { allowOrigins: ["https://a.example"] })).toMatchObject({ allowHeaders: ["*"] });
      expect(() => gatewayCors("Api", { maxAge: 600 })).toThrow(/not an SST duration/);
      expect(() => gatewayCors("Api", { maxAge: "2 days" })).toThrow(/86400/);
      expect(() => gatewayCors("Api", { allowMethods: ["FETCH"] })).toThrow(/FETCH/);
      expect(() => gatewayCors("Api", { allowOrigin: ["https://a.example"] })).toThrow(/no setting "allowOrigin"/);
      expect(() => gatewayCors("Api", { allowCredentials: true })).toThrow(/credentials/);
    });
  });

  describe("the route check and the recorder catch mistakes", () => {
    const arnOf = (): Record<Family, unknown> =>
      Object.fromEntries(FAMILIES.map((family) => [family, infra.functions[family].arn])) as Record<Family, unknown>;
    /** The registrations the route table asks for, independent of what infra/api.ts did. */
    const tableRoutes = (): RecordedRoute[] => [
      ...allRoutes().flatMap((route) =>
        gatewayMethods(route).map((method) => ({
          api: "Api",
          rawRoute: `${method} ${infra.gatewayPath(route.path)}`,
          handler: arnOf()[route.family],
          args: {},
        })),
      ),
      { api: "Api", rawRoute: "$default", handler: arnOf()[DEFAULT_ROUTE_FAMILY], args: {} },
    ];
    const check = (routes: RecordedRoute[]) => routeProblems(routes, arnOf(), infra.gatewayPath);

    it("reports a missing, an extra, a duplicated and a misdirected route", () => {
      const routes = tableRoutes();
      expect(check(routes)).toEqual([]);
      const [first] = routes as [RecordedRoute];
      expect(check(routes.slice(1))).toEqual([`${first.rawRoute} is not registered`]);
      expect(check([...routes, { ...first, rawRoute: "GET /api/nowhere" }])).toEqual([
        "GET /api/nowhere is not in the route table",
      ]);
      expect(check([...routes, first])).toEqual([`${first.rawRoute} is registered 2 times`]);

      const defaultArn = arnOf()[DEFAULT_ROUTE_FAMILY];
      const other = routes.find((route) => route.handler !== defaultArn);
      if (!other) throw new Error("the route table has a single family; nothing to misdirect");
      const misdirected = routes.map((route) => (route === other ? { ...route, handler: defaultArn } : route));
      expect(check(misdirected)).toEqual([
        `${other.rawRoute} goes to ${String(defaultArn)}, not ${String(other.handler)}`,
      ]);
    });

    it("refuses a link to something that is not a component and an environment Lambda rejects", () => {
      const { Function: LambdaFunction } = (
        globalThis as unknown as { sst: { aws: { Function: FunctionConstructor } } }
      ).sst.aws;
      const handler = "functions/service.handler";
      expect(() => new LambdaFunction("Stray", { handler, link: [{ name: "Table" }] })).toThrow(/not a recorded/);
      expect(() => new LambdaFunction("Reserved", { handler, environment: { AWS_REGION: "eu-west-1" } })).toThrow(
        /AWS_REGION is reserved by Lambda/,
      );
      expect(() => new LambdaFunction("Numeric", { handler, environment: { PORT: 8080 } })).toThrow(/must be a string/);
    });

    it("refuses Hono path syntax and duplicate route keys, as API Gateway would", () => {
      const arn = infra.functions[DEFAULT_ROUTE_FAMILY].arn;
      expect(() => infra.api.route("GET /api/issues/:id", arn)).toThrow(/segment ":id"/);
      const [first] = infra.recording.routes as [RecordedRoute];
      expect(() => infra.api.route(first.rawRoute, arn)).toThrow(/registered twice/);
    });
  });
});

describe("gatewayPath", () => {
  let gatewayPath: ApiModule["gatewayPath"];
  beforeEach(async () => {
    ({ gatewayPath } = await evaluateInfra());
  });

  it("turns Hono parameters into API Gateway parameters and leaves literals alone", () => {
    expect(gatewayPath("/")).toBe("/");
    expect(gatewayPath("/health")).toBe("/health");
    expect(gatewayPath("/api/openapi.json")).toBe("/api/openapi.json");
    expect(gatewayPath("/api/issues/:id")).toBe("/api/issues/{id}");
    expect(gatewayPath("/api/issues/:id/comments/:commentId")).toBe("/api/issues/{id}/comments/{commentId}");
  });

  it("refuses Hono-only syntax API Gateway cannot express", () => {
    expect(() => gatewayPath("/api/issues/:id{[0-9]+}")).toThrow(/no API Gateway equivalent/);
    expect(() => gatewayPath("/api/issues/:id?")).toThrow(/no API Gateway equivalent/);
    expect(() => gatewayPath("/api/*")).toThrow(/no API Gateway equivalent/);
  });
});

describe("sst.config.ts", () => {
  async function loadSstConfig(): Promise<{ config: SstConfig; recording: Recording }> {
    stubDeployEnvironment(undefined);
    const recording = installSstRecorder({ secrets: { [LINKED.serviceApiKey]: SERVICE_API_KEY } });
    const { default: config } = await importFresh<{ default: SstConfig }>("sst.config.ts");
    return { config, recording };
  }

  it("retains and protects production (prod or production), and removes every other stage", async () => {
    const { config } = await loadSstConfig();
    for (const stage of ["prod", "production"]) {
      expect(config.app({ stage })).toEqual({ name: "kaizen", home: "aws", removal: "retain", protect: true });
    }
    for (const input of [{ stage: "dev" }, { stage: "pr-42" }, { stage: "producti" }, undefined]) {
      expect(config.app(input)).toEqual({ name: "kaizen", home: "aws", removal: "remove", protect: false });
    }
  });

  it("creates nothing until run(), which creates the whole stack and outputs the API url", async () => {
    const { config, recording } = await loadSstConfig();
    expect(recording.components).toHaveLength(0);
    const outputs = await config.run();
    const api = only(recording.ofKind("sst.aws.ApiGatewayV2"));
    expect(outputs).toEqual({ api: (api.instance as RoutableApi).url });
    expect(recording.components).toHaveLength(
      1 + SECRET_NAMES.length + FAMILIES.length + 1 + EVENT_COMPONENTS + SWEEP_COMPONENTS + HANDOFF_COMPONENTS,
    );
    expect(recording.routes).toHaveLength(GATEWAY_ROUTE_COUNT + 1);
  });
});

/**
 * @module tests/helpers/sst-recorder — a recording stand-in for SST's `sst` and `$config` globals:
 * evaluating `infra/*.ts` against it records every component and route instead of deploying them.
 * Where SST, Lambda or API Gateway would refuse the program (a secret with no value, two components
 * with one name, a route key twice or in a form API Gateway rejects, a link to something that cannot
 * be linked, a function environment variable Lambda rejects, a route handler that is neither a
 * handler path nor a function ARN, a CORS setting SST or API Gateway refuses), the stand-in throws too.
 */

/** A value that only exists once deployed (an ARN, a URL), standing in for a Pulumi `Output`. */
export class RecordedOutput {
  constructor(
    readonly component: string,
    readonly property: string,
  ) {}

  toString(): string {
    return `${this.component}.${this.property}`;
  }
}

export type ComponentKind =
  | "sst.aws.Dynamo"
  | "sst.aws.Function"
  | "sst.aws.ApiGatewayV2"
  | "sst.Secret"
  | "sst.aws.Queue"
  | "sst.aws.Cron"
  | "sst.aws.DynamoLambdaSubscriber"
  | "sst.aws.QueueLambdaSubscriber";

/** The function a subscriber or a cron job runs, as its args give it. */
export interface SubscriberFunction {
  handler: string;
  timeout?: string;
  link?: unknown[];
  environment?: unknown;
  [setting: string]: unknown;
}

/** One `new sst.…(name, args)`: `instance` is what the infra code got back. */
export interface RecordedComponent {
  kind: ComponentKind;
  name: string;
  args: unknown;
  instance: object;
}

/** One `api.route(rawRoute, handler, args)`. */
export interface RecordedRoute {
  api: string;
  rawRoute: string;
  handler: unknown;
  args: unknown;
}

export class Recording {
  readonly components: RecordedComponent[] = [];
  readonly routes: RecordedRoute[] = [];

  ofKind(kind: ComponentKind): RecordedComponent[] {
    return this.components.filter((component) => component.kind === kind);
  }

  /** The component the infra code holds as `instance`; throws for anything the recorder did not make. */
  byInstance(instance: unknown): RecordedComponent {
    const found = this.components.find((component) => component.instance === instance);
    if (!found) throw new Error(`${String(instance)} is not a recorded SST component`);
    return found;
  }

  /**
   * What `Resource` holds inside a recorded function: each linked component by name, with the
   * properties SST links for its kind (outputs stay {@link RecordedOutput}s).
   */
  linkedResources(fn: RecordedComponent): Record<string, Record<string, unknown>> {
    const link = (fn.args as { link?: unknown[] }).link ?? [];
    return Object.fromEntries(
      link.map((item) => {
        const component = this.byInstance(item);
        const instance = component.instance as Record<string, unknown>;
        const properties = LINK_PROPERTIES[component.kind].map((property) => [property, instance[property]]);
        return [component.name, Object.fromEntries(properties)];
      }),
    );
  }

  add(kind: ComponentKind, name: string, args: unknown, instance: object): void {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
      throw new Error(`Component name "${name}" is not usable as a link name (Resource.${name})`);
    }
    const clash = this.components.find((component) => component.name === name);
    if (clash) throw new Error(`Two components are named "${name}" (${clash.kind} and ${kind})`);
    this.components.push({ kind, name, args, instance });
  }
}

export interface RecorderOptions {
  /** Secret values as `sst secret set` would have stored them for the stage. */
  secrets?: Record<string, string>;
}

/** The properties SST puts in `Resource.<Name>` for each kind of component (their `getSSTLink()`). */
const LINK_PROPERTIES: Record<ComponentKind, string[]> = {
  "sst.aws.Dynamo": ["name"],
  "sst.aws.Function": ["name"],
  "sst.aws.ApiGatewayV2": ["url"],
  "sst.Secret": ["value"],
  "sst.aws.Queue": ["url"],
  "sst.aws.Cron": [],
  "sst.aws.DynamoLambdaSubscriber": [],
  "sst.aws.QueueLambdaSubscriber": [],
};

/** Lambda sets these itself and refuses a function configuration that names them. */
const LAMBDA_RESERVED_VARIABLES =
  /^(_HANDLER|_X_AMZN_TRACE_ID|AWS_REGION|AWS_EXECUTION_ENV|AWS_LAMBDA_\w+|AWS_ACCESS_KEY(_ID)?|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|LAMBDA_TASK_ROOT|LAMBDA_RUNTIME_DIR)$/;

/** A function's `environment`: names Lambda accepts, each set to a string or a deployed value. */
function assertEnvironment(owner: string, environment: unknown): void {
  if (environment === undefined) return;
  if (typeof environment !== "object" || environment === null || Array.isArray(environment)) {
    throw new Error(`${owner}: environment must map variable names to values`);
  }
  for (const [name, value] of Object.entries(environment)) {
    if (!/^[A-Za-z]\w*$/.test(name)) throw new Error(`${owner}: "${name}" is not a valid environment variable name`);
    if (LAMBDA_RESERVED_VARIABLES.test(name)) throw new Error(`${owner}: ${name} is reserved by Lambda`);
    if (typeof value !== "string" && !(value instanceof RecordedOutput)) {
      throw new Error(`${owner}: environment variable ${name} must be a string, got ${typeof value}`);
    }
  }
}

const LAMBDA_ROUTE_METHODS = ["ANY", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/** API Gateway HTTP API route keys: `$default`, or `METHOD /literal/{param}/{greedy+}`. */
function assertRouteKey(rawRoute: string): void {
  if (rawRoute === "$default") return;
  const [method, path, ...rest] = rawRoute.split(" ");
  if (rest.length > 0 || !method || !LAMBDA_ROUTE_METHODS.includes(method) || !path?.startsWith("/")) {
    throw new Error(`"${rawRoute}" is not an API Gateway route key ("METHOD /path" or "$default")`);
  }
  const segments = path === "/" ? [] : path.slice(1).split("/");
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const valid = /^[\w.~-]+$/.test(segment) || /^\{\w+\}$/.test(segment) || (last && /^\{\w+\+\}$/.test(segment));
    if (!valid) throw new Error(`Route "${rawRoute}": segment "${segment}" is not valid in API Gateway`);
  });
}

/** SST's `Duration` as a CORS `maxAge` takes it, in seconds. */
const DURATION_SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400 };
const CORS_KEYS = ["allowCredentials", "allowHeaders", "allowMethods", "allowOrigins", "exposeHeaders", "maxAge"];
const CORS_METHODS = ["*", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"];

function durationSeconds(owner: string, duration: unknown): number {
  const match = typeof duration === "string" ? /^(\d+) (second|minute|hour|day)s?$/.exec(duration) : null;
  if (!match?.[1] || !match[2]) throw new Error(`${owner}: "${String(duration)}" is not an SST duration`);
  return Number(match[1]) * (DURATION_SECONDS[match[2]] ?? Number.NaN);
}

/** The HTTP API's CORS configuration as API Gateway receives it. */
export interface GatewayCors {
  allowCredentials?: boolean;
  allowHeaders?: string[];
  allowMethods?: string[];
  allowOrigins?: string[];
  exposeHeaders?: string[];
  maxAge?: number;
}

/**
 * What SST's ApiGatewayV2 hands API Gateway for its `cors` argument (its `normalizeCors`): `false`
 * configures nothing (no CORS headers), `true` or no argument allows every origin, method and header,
 * and an object is merged over those wildcards — so a field left out stays `*`. Throws where SST or
 * API Gateway would refuse the setting.
 * @example gatewayCors("Api", false) // {}
 */
export function gatewayCors(owner: string, cors: unknown): GatewayCors {
  if (cors === false) return {};
  const wildcard = { allowHeaders: ["*"], allowMethods: ["*"], allowOrigins: ["*"] };
  if (cors === true || cors === undefined) return wildcard;
  if (typeof cors !== "object" || cors === null || Array.isArray(cors)) {
    throw new Error(`${owner}: cors must be a boolean or CORS settings`);
  }
  const settings = cors as Record<string, unknown>;
  for (const key of Object.keys(settings)) {
    if (!CORS_KEYS.includes(key)) throw new Error(`${owner}: cors has no setting "${key}"`);
  }
  for (const key of ["allowHeaders", "allowMethods", "allowOrigins", "exposeHeaders"]) {
    const list = settings[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== "string"))) {
      throw new Error(`${owner}: cors.${key} must be a list of strings`);
    }
  }
  const methods = (settings.allowMethods as string[] | undefined) ?? [];
  const unknown = methods.find((method) => !CORS_METHODS.includes(method));
  if (unknown) throw new Error(`${owner}: cors.allowMethods has "${unknown}", not a method API Gateway takes`);
  const { maxAge, ...rest } = settings;
  const normalized: GatewayCors = {
    ...wildcard,
    ...(rest as GatewayCors),
    ...(maxAge === undefined ? {} : { maxAge: durationSeconds(`${owner}: cors.maxAge`, maxAge) }),
  };
  if ((normalized.maxAge ?? 0) > 86400) throw new Error(`${owner}: cors.maxAge is over API Gateway's 86400 seconds`);
  if (normalized.allowCredentials && normalized.allowOrigins?.includes("*")) {
    throw new Error(`${owner}: API Gateway refuses credentials with the "*" origin`);
  }
  return normalized;
}

/**
 * Sets `globalThis.sst` and `globalThis.$config` to recording stand-ins and returns the recording.
 * @example const recording = installSstRecorder({ secrets: { ServiceApiKey: key } });
 */
export function installSstRecorder(options: RecorderOptions = {}): Recording {
  const recording = new Recording();
  const setSecrets = options.secrets ?? {};

  const assertLinkable = (owner: string, link: unknown): void => {
    if (link === undefined) return;
    if (!Array.isArray(link)) throw new Error(`${owner}: link must be a list of components`);
    for (const item of link) recording.byInstance(item);
  };

  /** A subscriber or cron function: a handler path, linkable links, an environment Lambda takes. */
  const assertFunction = (owner: string, fn: unknown): SubscriberFunction => {
    const args = (typeof fn === "string" ? { handler: fn } : fn) as SubscriberFunction | undefined;
    if (typeof args?.handler !== "string" || !/^[\w/.-]+\.\w+$/.test(args.handler)) {
      throw new Error(`${owner}: the function needs a handler path (file.export)`);
    }
    assertLinkable(owner, args.link);
    assertEnvironment(owner, args.environment);
    return args;
  };

  class Dynamo {
    readonly arn: RecordedOutput;
    readonly name: RecordedOutput;
    readonly #name: string;
    readonly #streamEnabled: boolean;
    constructor(name: string, args: { stream?: unknown }) {
      this.arn = new RecordedOutput(name, "arn");
      this.name = new RecordedOutput(name, "name");
      this.#name = name;
      this.#streamEnabled = args?.stream !== undefined && args.stream !== false;
      recording.add("sst.aws.Dynamo", name, args, this);
    }

    /** SST's `subscribe(name, subscriber, args)`; like SST, refused on a table without a stream. */
    subscribe(name: string, subscriber: unknown, args: { filters?: unknown[] } = {}): object {
      if (!this.#streamEnabled) throw new Error(`Cannot subscribe to "${this.#name}" because stream is not enabled.`);
      const owner = `${this.#name} subscriber ${name}`;
      const fn = assertFunction(owner, subscriber);
      if ((args.filters?.length ?? 0) > 5) throw new Error(`${owner}: at most 5 filters`);
      const instance = {};
      recording.add(
        "sst.aws.DynamoLambdaSubscriber",
        `${this.#name}Subscriber${name}`,
        { ...args, subscriber: fn },
        instance,
      );
      return instance;
    }
  }

  class Queue {
    readonly arn: RecordedOutput;
    readonly url: RecordedOutput;
    readonly #name: string;
    readonly #visibilityTimeout: number;
    constructor(name: string, args: { visibilityTimeout?: string } = {}) {
      this.arn = new RecordedOutput(name, "arn");
      this.url = new RecordedOutput(name, "url");
      this.#name = name;
      this.#visibilityTimeout = durationSeconds(
        `Queue ${name}: visibilityTimeout`,
        args.visibilityTimeout ?? "30 seconds",
      );
      recording.add("sst.aws.Queue", name, args, this);
    }

    /** SST's `subscribe(subscriber, args)`; Lambda refuses a subscriber whose timeout outlasts the visibility timeout. */
    subscribe(subscriber: unknown, args: unknown = {}): object {
      const owner = `Queue ${this.#name} subscriber`;
      const fn = assertFunction(owner, subscriber);
      const timeout = durationSeconds(`${owner}: timeout`, fn.timeout ?? "20 seconds");
      if (timeout > this.#visibilityTimeout) {
        throw new Error(`${owner}: queue visibility timeout is less than the function timeout (${timeout} s)`);
      }
      const instance = {};
      recording.add(
        "sst.aws.QueueLambdaSubscriber",
        `${this.#name}Subscriber`,
        { ...(args as object), subscriber: fn },
        instance,
      );
      return instance;
    }
  }

  class Cron {
    constructor(name: string, args: { schedule?: unknown; function?: unknown }) {
      const schedule = String(args?.schedule);
      const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(schedule);
      const singular = rate && (rate[1] === "1") === !rate[2]?.endsWith("s");
      if (!singular && !/^cron\(.+\)$/.test(schedule))
        throw new Error(`Cron ${name}: "${schedule}" is not a schedule expression`);
      const fn = assertFunction(`Cron ${name}`, args.function);
      recording.add("sst.aws.Cron", name, { ...args, function: fn }, this);
    }
  }

  class LambdaFunction {
    readonly arn: RecordedOutput;
    readonly name: RecordedOutput;
    constructor(name: string, args: { handler?: unknown; link?: unknown; environment?: unknown }) {
      if (typeof args?.handler !== "string") throw new Error(`Function ${name}: handler must be a string`);
      assertLinkable(`Function ${name}`, args.link);
      assertEnvironment(`Function ${name}`, args.environment);
      this.arn = new RecordedOutput(name, "arn");
      this.name = new RecordedOutput(name, "name");
      recording.add("sst.aws.Function", name, args, this);
    }
  }

  class ApiGatewayV2 {
    /** Linked as `Resource.<name>.url`. */
    readonly url: RecordedOutput;
    readonly #name: string;
    constructor(name: string, args: { link?: unknown; cors?: unknown } = {}) {
      assertLinkable(`ApiGatewayV2 ${name}`, args.link);
      gatewayCors(`ApiGatewayV2 ${name}`, args.cors);
      this.#name = name;
      this.url = new RecordedOutput(name, "url");
      recording.add("sst.aws.ApiGatewayV2", name, args, this);
    }

    route(rawRoute: string, handler: unknown, args: unknown = {}): void {
      assertRouteKey(rawRoute);
      if (recording.routes.some((route) => route.api === this.#name && route.rawRoute === rawRoute)) {
        throw new Error(`Route "${rawRoute}" is registered twice on ${this.#name}`);
      }
      const isFunctionArn =
        handler instanceof RecordedOutput &&
        handler.property === "arn" &&
        recording.components.some((c) => c.kind === "sst.aws.Function" && c.name === handler.component);
      if (typeof handler !== "string" && !isFunctionArn) {
        throw new Error(`Route "${rawRoute}": handler must be a handler path or a function's ARN`);
      }
      recording.routes.push({ api: this.#name, rawRoute, handler, args });
    }
  }

  class Secret {
    readonly name: RecordedOutput;
    readonly value: string;
    constructor(name: string, placeholder?: string) {
      // SST's own rule: the stage's value, else the placeholder, else the program stops.
      const value = setSecrets[name] ?? placeholder;
      if (typeof value !== "string") throw new Error(`Set a value for ${name} with \`sst secret set ${name} <value>\``);
      this.name = new RecordedOutput(name, "name");
      this.value = value;
      recording.add("sst.Secret", name, { placeholder }, this);
    }
  }

  const globals = globalThis as Record<string, unknown>;
  globals.sst = { aws: { Dynamo, Function: LambdaFunction, ApiGatewayV2, Queue, Cron }, Secret };
  globals.$config = <T>(config: T): T => config;
  return recording;
}

export function uninstallSstRecorder(): void {
  const globals = globalThis as Record<string, unknown>;
  delete globals.sst;
  delete globals.$config;
}

/**
 * SST's `transform` semantics for a sub-resource: a callback edits the args in place, an object is
 * merged over them (shallowly).
 */
export function applyTransform<T extends object>(transform: unknown, args: T): T {
  if (typeof transform === "function") {
    transform(args, {}, "recorded");
    return args;
  }
  return { ...args, ...(transform as Partial<T> | undefined) };
}

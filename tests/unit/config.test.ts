import { describe, expect, it } from "vitest";
import { apiBaseUrl, InvalidConfigError, LINKED, loadConfig } from "../../core/src/config.js";

const KEY = `kaizen_${"0123456789abcdef".repeat(4)}`;

describe("loadConfig", () => {
  it("applies the documented defaults to an empty environment", () => {
    const config = loadConfig({ env: {} });
    expect(config).toEqual({
      serviceApiKey: undefined,
      tableName: "kaizen",
      dynamodbEndpoint: undefined,
      emulateConflicts: false,
      region: "us-east-1",
      webhookSecrets: { codehost: undefined, errortracker: undefined, analytics: undefined },
      publicBaseUrl: undefined,
      port: 4242,
      corsAllowedOrigins: [],
      outboundAllowPrivate: false,
      githubApiUrl: "https://api.github.com",
    });
  });

  it("reads every variable of docs/api.md#configuration", () => {
    const config = loadConfig({
      env: {
        SERVICE_API_KEY: KEY,
        SERVICE_API_KEY_PREVIOUS: `kaizen_${"9e".repeat(32)}`,
        TABLE_NAME: "kz",
        DYNAMODB_ENDPOINT: "http://127.0.0.1:8000/",
        AWS_REGION: "eu-west-1",
        CODEHOST_WEBHOOK_SECRET: "c",
        ERRORTRACKER_CLIENT_SECRET: "e",
        ANALYTICS_WEBHOOK_SECRET: "a",
        PUBLIC_BASE_URL: "https://kaizen.example.com/",
        PORT: "8080",
        DYNAMODB_EMULATE_CONFLICTS: "on",
        CORS_ALLOWED_ORIGINS: "https://dash.example.com",
        OUTBOUND_ALLOW_PRIVATE: "on",
        GITHUB_API_URL: "https://github.example.com/api/v3/",
      },
    });
    expect(config).toEqual({
      serviceApiKey: KEY,
      serviceApiKeyPrevious: `kaizen_${"9e".repeat(32)}`,
      tableName: "kz",
      dynamodbEndpoint: "http://127.0.0.1:8000",
      emulateConflicts: true,
      region: "eu-west-1",
      webhookSecrets: { codehost: "c", errortracker: "e", analytics: "a" },
      publicBaseUrl: "https://kaizen.example.com",
      port: 8080,
      corsAllowedOrigins: ["https://dash.example.com"],
      outboundAllowPrivate: true,
      githubApiUrl: "https://github.example.com/api/v3",
    });
  });

  it("reads DYNAMODB_EMULATE_CONFLICTS as a switch and refuses anything else", () => {
    for (const on of ["1", "true", "ON", " on "]) {
      expect(loadConfig({ env: { DYNAMODB_EMULATE_CONFLICTS: on } }).emulateConflicts).toBe(true);
    }
    for (const off of ["0", "false", "off", ""]) {
      expect(loadConfig({ env: { DYNAMODB_EMULATE_CONFLICTS: off } }).emulateConflicts).toBe(false);
    }
    expect(() => loadConfig({ env: { DYNAMODB_EMULATE_CONFLICTS: "yes please" } })).toThrow(
      /DYNAMODB_EMULATE_CONFLICTS must be one of/,
    );
  });

  it("falls back to linked SST resources, and the environment wins over them", () => {
    const linked = {
      Table: { name: "kaizen-prod-TableAbc" },
      ServiceApiKey: { value: KEY },
      CodehostWebhookSecret: { value: "linked-codehost" },
      ErrortrackerClientSecret: { value: "" },
    };
    const fromLinks = loadConfig({ env: {}, linked });
    expect(fromLinks.tableName).toBe("kaizen-prod-TableAbc");
    expect(fromLinks.serviceApiKey).toBe(KEY);
    expect(fromLinks.webhookSecrets).toEqual({
      codehost: "linked-codehost",
      errortracker: undefined,
      analytics: undefined,
    });
    expect(loadConfig({ env: { TABLE_NAME: "override" }, linked }).tableName).toBe("override");
  });

  describe("publicBaseUrl", () => {
    const API_URL = "https://abc123.execute-api.us-east-1.amazonaws.com";

    it("is the linked API's url when PUBLIC_BASE_URL is not set", () => {
      expect(loadConfig({ env: {}, linked: { [LINKED.api]: { url: API_URL } } }).publicBaseUrl).toBe(API_URL);
      expect(loadConfig({ env: { PUBLIC_BASE_URL: " " }, linked: { Api: { url: API_URL } } }).publicBaseUrl).toBe(
        API_URL,
      );
    });

    it("is PUBLIC_BASE_URL over the linked API's url", () => {
      const config = loadConfig({
        env: { PUBLIC_BASE_URL: "https://kaizen.example.com" },
        linked: { Api: { url: API_URL } },
      });
      expect(config.publicBaseUrl).toBe("https://kaizen.example.com");
    });

    it("has no trailing slash, from either source", () => {
      expect(loadConfig({ env: {}, linked: { Api: { url: `${API_URL}/` } } }).publicBaseUrl).toBe(API_URL);
      // A custom domain with a base path: SST's url ends in a slash.
      expect(loadConfig({ env: {}, linked: { Api: { url: "https://api.example.com/v1/" } } }).publicBaseUrl).toBe(
        "https://api.example.com/v1",
      );
      expect(loadConfig({ env: { PUBLIC_BASE_URL: "https://kaizen.example.com//" } }).publicBaseUrl).toBe(
        "https://kaizen.example.com",
      );
    });

    it("is undefined with neither", () => {
      expect(loadConfig({ env: {}, linked: { Api: { url: "" } } }).publicBaseUrl).toBeUndefined();
      expect(loadConfig({ env: {} }).publicBaseUrl).toBeUndefined();
    });
  });

  it("does not read linked names that are absent (SST's proxy throws on them)", () => {
    const throwing = new Proxy(
      {},
      {
        get: (_target, name) => {
          throw new Error(`${String(name)} is not linked`);
        },
        has: () => false,
      },
    );
    expect(() => loadConfig({ env: {}, linked: throwing })).not.toThrow();
  });

  it("treats blank values as not configured", () => {
    expect(loadConfig({ env: { SERVICE_API_KEY: "  ", CODEHOST_WEBHOOK_SECRET: "" } })).toMatchObject({
      serviceApiKey: undefined,
      webhookSecrets: { codehost: undefined },
    });
  });

  it.each([
    ["uppercase hex", `kaizen_${"0123456789ABCDEF".repeat(4)}`],
    ["too short", `kaizen_${"a".repeat(63)}`],
    ["too long", `kaizen_${"a".repeat(65)}`],
    ["wrong prefix", `kaizan_${"a".repeat(64)}`],
    ["trailing newline", `${KEY}\n`],
  ])("refuses a malformed SERVICE_API_KEY (%s) with a message naming it", (_case, key) => {
    expect(() => loadConfig({ env: { SERVICE_API_KEY: key } })).toThrow(InvalidConfigError);
    expect(() => loadConfig({ env: { SERVICE_API_KEY: key } })).toThrow(/^SERVICE_API_KEY is malformed/);
  });

  it("reads the previous root key from the environment or its link, with the same format check", () => {
    const previous = `kaizen_${"ab".repeat(32)}`;
    expect(loadConfig({ env: { SERVICE_API_KEY_PREVIOUS: previous } }).serviceApiKeyPrevious).toBe(previous);
    expect(loadConfig({ env: {}, linked: { ServiceApiKeyPrevious: { value: previous } } }).serviceApiKeyPrevious).toBe(
      previous,
    );
    expect(loadConfig({ env: {}, linked: { ServiceApiKeyPrevious: { value: "" } } }).serviceApiKeyPrevious).toBe(
      undefined,
    );
    expect(() => loadConfig({ env: { SERVICE_API_KEY_PREVIOUS: "kaizen_old" } })).toThrow(
      /^SERVICE_API_KEY_PREVIOUS is malformed/,
    );
  });

  it("refuses a malformed key that comes from a link as well", () => {
    expect(() => loadConfig({ env: {}, linked: { ServiceApiKey: { value: "secret" } } })).toThrow(
      /SERVICE_API_KEY is malformed/,
    );
  });

  it.each(["0", "65536", "80a", "-1", "1.5"])("refuses PORT=%s", (port) => {
    expect(() => loadConfig({ env: { PORT: port } })).toThrow(/^PORT must be an integer between 1 and 65535/);
  });

  it.each([
    ["DYNAMODB_ENDPOINT", "localhost:8000"],
    ["PUBLIC_BASE_URL", "ftp://example.com"],
  ])("refuses %s that is not an http(s) URL", (name, value) => {
    expect(() => loadConfig({ env: { [name]: value } })).toThrow(new RegExp(`^${name} must be an http\\(s\\) URL`));
  });
});

describe("CORS_ALLOWED_ORIGINS", () => {
  const origins = (value: string | undefined) =>
    loadConfig({ env: { CORS_ALLOWED_ORIGINS: value } }).corsAllowedOrigins;

  it("is no origin at all when unset or blank", () => {
    expect(origins(undefined)).toEqual([]);
    expect(origins("")).toEqual([]);
    expect(origins(" , ")).toEqual([]);
  });

  it("reads a comma-separated list of exact origins, trimmed, without repeats", () => {
    expect(origins("https://dash.example.com, http://localhost:5173 ,https://dash.example.com,")).toEqual([
      "https://dash.example.com",
      "http://localhost:5173",
    ]);
    expect(origins("https://dash.example.com:8443")).toEqual(["https://dash.example.com:8443"]);
  });

  it('refuses "*", alone or in a host, with a message saying why', () => {
    for (const [value, entry] of [
      ["*", "*"],
      ["https://dash.example.com,*", "*"],
      ["https://*.example.com", "https://*.example.com"],
    ]) {
      expect(() => origins(value)).toThrow(InvalidConfigError);
      expect(() => origins(value)).toThrow(
        `CORS_ALLOWED_ORIGINS must list exact origins (https://dash.example.com); "*" is not allowed, got "${entry}"`,
      );
    }
  });

  it.each([
    ["a trailing slash", "https://dash.example.com/"],
    ["a path", "https://dash.example.com/app"],
    ["no scheme", "dash.example.com"],
    ["another scheme", "ftp://dash.example.com"],
    ["upper case (browsers send lower case)", "https://Dash.Example.com"],
    ["the default port spelled out", "https://dash.example.com:443"],
    ["a query", "https://dash.example.com?x=1"],
  ])("refuses an entry with %s, naming the variable and the entry", (_case, entry) => {
    expect(() => origins(`http://localhost:5173,${entry}`)).toThrow(InvalidConfigError);
    expect(() => origins(entry)).toThrow(`CORS_ALLOWED_ORIGINS must list exact origins like https://dash.example.com`);
    expect(() => origins(entry)).toThrow(`got "${entry}"`);
  });
});

describe("apiBaseUrl", () => {
  it("is the public base URL when one is known", () => {
    expect(apiBaseUrl(loadConfig({ env: { PUBLIC_BASE_URL: "https://kaizen.example.com/" } }))).toBe(
      "https://kaizen.example.com",
    );
    expect(apiBaseUrl(loadConfig({ env: {}, linked: { Api: { url: "https://abc.example.com" } } }))).toBe(
      "https://abc.example.com",
    );
  });

  it("falls back to the local server's own address", () => {
    expect(apiBaseUrl(loadConfig({ env: {} }))).toBe("http://localhost:4242");
    expect(apiBaseUrl(loadConfig({ env: { PORT: "8080" } }))).toBe("http://localhost:8080");
  });
});

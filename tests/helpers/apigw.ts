/** API Gateway HTTP API (payload 2.0) events, shaped as the gateway sends them to Lambda. */
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { TEST_API_KEY as AUTHORIZED_KEY } from "./db.js";

export interface EventOptions {
  method: string;
  path: string;
  /** Raw query string without `?`, exactly as the client sent it. */
  query?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body base64-encoded, as the gateway does for binary or non-text media types. */
  base64?: boolean;
  routeKey?: string;
}

export function apiGatewayEvent(options: EventOptions): APIGatewayProxyEventV2 {
  const query = options.query ?? "";
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    // The gateway joins repeated parameters with commas.
    queryStringParameters[name] = queryStringParameters[name] ? `${queryStringParameters[name]},${value}` : value;
  }
  const now = new Date();
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  return {
    version: "2.0",
    routeKey: options.routeKey ?? `${options.method} ${options.path}`,
    rawPath: options.path,
    rawQueryString: query,
    cookies: [],
    headers: {
      accept: "*/*",
      host: "abc123.execute-api.eu-west-1.amazonaws.com",
      "user-agent": "vitest",
      "x-forwarded-for": "203.0.113.7",
      "x-forwarded-port": "443",
      "x-forwarded-proto": "https",
      ...(body ? { "content-length": String(body.length) } : {}),
      ...options.headers,
    },
    ...(query ? { queryStringParameters } : {}),
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      domainName: "abc123.execute-api.eu-west-1.amazonaws.com",
      domainPrefix: "abc123",
      http: {
        method: options.method,
        path: options.path,
        protocol: "HTTP/1.1",
        sourceIp: "203.0.113.7",
        userAgent: "vitest",
      },
      requestId: `req${now.getTime()}${Math.floor(Math.random() * 1e6)}`,
      routeKey: options.routeKey ?? `${options.method} ${options.path}`,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body ? { body: options.base64 ? body.toString("base64") : body.toString("utf8") } : {}),
    isBase64Encoded: Boolean(options.base64 && body),
  };
}

/**
 * An event for the gateway route `routeKey` (`"POST /api/issues/{id}"`) at `path`, with the service
 * key and a JSON content type unless `headers` replace them.
 */
export function authorizedEvent(routeKey: string, options: Omit<EventOptions, "method" | "routeKey">) {
  const [method = "GET"] = routeKey.split(" ");
  return apiGatewayEvent({
    method,
    routeKey,
    ...options,
    headers: { Authorization: `Bearer ${AUTHORIZED_KEY}`, "Content-Type": "application/json", ...options.headers },
  });
}

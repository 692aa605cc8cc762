/**
 * @module service/api — the `service` family's routes (docs/api.md#service-health-dashboard-and-docs, docs/api.md#console),
 * each declared once: guard, request schemas, answers and OpenAPI text (openapi/declare).
 */
import { type Declarations, ISSUE_REF, TEXT } from "../openapi/declare.js";
import { providersQuery } from "./schemas.js";

/** Every page of the web console answers with the same HTML shell, which shows the page its URL names. */
const CONSOLE_PAGE = { auth: "none", success: { raw: "html" } } as const;

/** What every console page is. */
const CONSOLE_PAGE_TEXT = TEXT
  ? "The web console's HTML, the same for every page: its script signs in with the API key (kept in the tab's session storage) and shows the page this URL names."
  : "";

export const serviceApi = {
  "GET /": {
    auth: "none",
    success: { item: "ServiceInfo" },
    database: false,
    doc: TEXT && {
      summary: "Service information",
      description: "Name, version and where the docs and the OpenAPI document are.",
      success: "The service",
    },
  },
  "GET /llms.txt": {
    auth: "none",
    success: { raw: "text" },
    database: false,
    doc: TEXT && {
      summary: "A guide for coding agents",
      description:
        "Plain text in the llms.txt form: what Kaizen is, how an agent claims, reports, asks and completes, and " +
        "links to this document and the reference page, all on this deployment's base URL (`PUBLIC_BASE_URL`, or the " +
        "address the request came to).",
      success: "The guide",
    },
  },
  "GET /health": {
    auth: "none",
    success: { raw: "health" },
    doc: TEXT && {
      summary: "Health check",
      description: "503 with `status: degraded` and the failing check when the table cannot be reached.",
      success: "Healthy",
    },
  },
  "GET /api/openapi.json": {
    auth: "none",
    success: { raw: "openapi" },
    database: false,
    doc: TEXT && {
      summary: "This OpenAPI document",
      success: "The OpenAPI 3.1 document",
    },
  },
  "GET /docs": {
    auth: "none",
    success: { raw: "html" },
    database: false,
    doc: TEXT && {
      summary: "Interactive API reference",
      description: "An HTML page rendering this document; its scripts and styles are served by `/docs/assets/{file}`.",
      success: "The reference page",
    },
  },
  "GET /docs/assets/:file": {
    auth: "none",
    success: { raw: "asset" },
    errors: [404],
    database: false,
    doc: TEXT && {
      summary: "A script or style sheet of the reference page",
      params: { file: "File name, e.g. `swagger-ui-bundle.js`" },
      success: "The file",
    },
  },
  "GET /app": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's overview", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/issues": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's issue list", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/issues/:id": {
    ...CONSOLE_PAGE,
    doc: TEXT && {
      summary: "The console's page of one issue",
      description: CONSOLE_PAGE_TEXT,
      params: { id: ISSUE_REF },
      success: "The console",
    },
  },
  "GET /app/queue": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's queue", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/activity": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's activity chains", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/agents": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's agents", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/prompts": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's templates", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/prompts/:id": {
    ...CONSOLE_PAGE,
    doc: TEXT && {
      summary: "The console's page of one template",
      description: CONSOLE_PAGE_TEXT,
      success: "The console",
      params: { id: "Template id (`tpl_…`)" },
    },
  },
  "GET /app/providers": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's providers", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/projects": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's projects", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/projects/:id": {
    ...CONSOLE_PAGE,
    doc: TEXT && {
      summary: "The console's page of one project",
      description: CONSOLE_PAGE_TEXT,
      success: "The console",
      params: { id: "Project id (`prj_…`)" },
    },
  },
  "GET /app/goals": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's goals", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/labels": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's labels", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/keys": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's API keys", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/audit": {
    ...CONSOLE_PAGE,
    doc: TEXT && { summary: "The console's audit log", description: CONSOLE_PAGE_TEXT, success: "The console" },
  },
  "GET /app/assets/:file": {
    auth: "none",
    success: { raw: "asset" },
    errors: [404],
    doc: TEXT && {
      summary: "A script or style sheet of the web console",
      params: { file: "File name, named by its content's hash, e.g. `app-HDPOXB4Q.js`" },
      success: "The file",
    },
  },
  "GET /api/providers": {
    auth: "bearer",
    scope: "read",
    reach: "shared",
    query: providersQuery,
    success: { list: "ProviderSetup" },
    doc: TEXT && {
      summary: "The webhook providers and how to connect them",
      description:
        "One entry per receiver: its URL, the variable of the secret that signs its deliveries and whether that secret is configured (never its value), the signature headers it reads, and the setup guide.",
      success: "A page of the providers (all three fit on the first)",
    },
  },
} satisfies Declarations;

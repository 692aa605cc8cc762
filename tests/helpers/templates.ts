/** Templates and prompts for tests: made through the API, and prompts recorded as a claim will record them. */
import type { Hono } from "hono";
import type { AppEnv } from "../../core/src/http/app.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import { claimPrompts, defaultTemplates, promptRenderer, templateService } from "../../core/src/services.js";
import type { TemplateDetail } from "../../core/src/templates/schemas.js";
import { jsonPost, type TestApp } from "./app.js";
import { testConfig } from "./db.js";

/** Creates a template (with `content`, its active version 1) and returns its detail. */
export async function createTemplate(app: Hono<AppEnv>, body: Record<string, unknown>): Promise<TemplateDetail> {
  const response = await app.request("/api/templates", jsonPost(body));
  if (response.status !== 201) throw new Error(`template create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: TemplateDetail }).data;
}

/** The template and prompt services of the app's table, as the composition root builds them. */
export function engineOf(t: TestApp) {
  const deps = { config: testConfig({ tableName: t.tableName, endpoint: t.endpoint }), db: t.db };
  return {
    templates: templateService(deps),
    renderer: promptRenderer(deps),
    defaults: defaultTemplates(deps),
    prompts: claimPrompts(deps),
  };
}

/** Renders and stores the prompt an issue would get now (what a claim does), without a dispatch. */
export async function recordPrompt(engine: ReturnType<typeof engineOf>, issueId: string, t: TestApp): Promise<Prompt> {
  await engine.prompts.ready();
  const prepared = await engine.prompts.preparePrompt(issueId, null, { dispatch: null, previousDispatches: [] });
  if (!prepared.prompt) throw new Error(`no template matches ${issueId}`);
  await t.db.transactWrite(prepared.writes);
  return prepared.prompt;
}

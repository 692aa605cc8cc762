/**
 * @module templates/engine — the services that choose, render and record prompts, built once per
 * app from its deps; shared by the families that need them (templates, prompts).
 */
import { CatalogService } from "../catalog/service.js";
import { apiBaseUrl } from "../config.js";
import type { AppDeps } from "../http/app.js";
import { IssueService } from "../issues/service.js";
import { IssueStore } from "../issues/store.js";
import { PromptService } from "../prompts/service.js";
import { PromptContextBuilder } from "./context.js";
import { TemplateService } from "./service.js";
import { TemplateStore } from "./store.js";

export interface PromptEngine {
  templates: TemplateService;
  prompts: PromptService;
  /** Seeds the default templates once per process (again after a failure); see {@link TemplateService.seedDefaults}. */
  defaultsReady(): Promise<void>;
}

/** @example const { templates, prompts } = promptEngine({ config, db }); */
export function promptEngine({ config, db }: AppDeps): PromptEngine {
  const catalog = new CatalogService(db);
  const issueStore = new IssueStore(db);
  const issues = new IssueService(issueStore, catalog);
  const templateStore = new TemplateStore(db);
  const contexts = new PromptContextBuilder(db, issues, catalog, apiBaseUrl(config));
  const templates = new TemplateService(templateStore, catalog, contexts);
  const prompts = new PromptService(db, templateStore, templates, issueStore, catalog);
  let seeding: Promise<void> | undefined;
  return {
    templates,
    prompts,
    defaultsReady() {
      seeding ??= templates.seedDefaults().then(
        () => undefined,
        (error: unknown) => {
          seeding = undefined;
          throw error;
        },
      );
      return seeding;
    },
  };
}

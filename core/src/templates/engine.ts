/**
 * @module templates/engine — the services that choose, render and record prompts and hand issues
 * to agents, built once per app from its deps; shared by the templates, prompts and dispatch families.
 */
import { CatalogService } from "../catalog/service.js";
import { apiBaseUrl } from "../config.js";
import { DispatchService } from "../dispatch/service.js";
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
  dispatch: DispatchService;
  /** Seeds the default templates once per process (again after a failure); see {@link TemplateService.seedDefaults}. */
  defaultsReady(): Promise<void>;
}

/** @example const { templates, prompts } = promptEngine({ config, db }); */
export function promptEngine({ config, db, clock }: AppDeps): PromptEngine {
  const now = clock ?? (() => new Date());
  const catalog = new CatalogService(db);
  const issueStore = new IssueStore(db);
  const issues = new IssueService(issueStore, catalog);
  const templateStore = new TemplateStore(db);
  const contexts = new PromptContextBuilder(db, issues, catalog, apiBaseUrl(config));
  const templates = new TemplateService(templateStore, catalog, contexts, now);
  const prompts = new PromptService(db, templateStore, templates, issueStore, catalog, now);
  const dispatch = new DispatchService(db, prompts, now);
  let seeding: Promise<void> | undefined;
  return {
    templates,
    prompts,
    dispatch,
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

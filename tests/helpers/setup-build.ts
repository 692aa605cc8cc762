/**
 * @module tests/helpers/setup-build — global setup of the system tier only: fresh Lambda bundles
 * (scripts/build.ts) and a fresh console build (console/build.ts), built once per run for every
 * system test that loads a bundle, packages the service or serves the console.
 */
import type { TestProject } from "vitest/node";
import { buildConsole } from "../../console/build.js";
import { buildFunctions } from "../../scripts/build.js";

declare module "vitest" {
  export interface ProvidedContext {
    bundles: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const [bundles] = await Promise.all([buildFunctions(), buildConsole()]);
  project.provide("bundles", bundles);
}

/**
 * @module openapi/text — whether the routes' OpenAPI text is kept: everywhere but in a Lambda bundle
 * (docs/contributing.md#budgets). Every piece of a declaration's prose is written after `TEXT &&` or
 * `TEXT ?`; a bundle's build defines {@link LAMBDA_BUNDLE_DEFINE}, esbuild inlines `TEXT` as
 * `false` across modules and folds the prose away. Nothing at run time reads it: the service serves
 * the prebuilt document (docs/openapi.json).
 */

declare global {
  /** `true` in a Lambda bundle only (its build's `define`); unset everywhere else. */
  var KAIZEN_LAMBDA_BUNDLE: true | undefined;
}

/** `false` in a Lambda bundle, `true` everywhere else. Imported, never redefined locally: esbuild folds it only across modules. */
export const TEXT = !globalThis.KAIZEN_LAMBDA_BUNDLE;

/** The esbuild `define` that makes {@link TEXT} false: scripts/build.ts and infra's functions build with it. */
export const LAMBDA_BUNDLE_DEFINE = { "globalThis.KAIZEN_LAMBDA_BUNDLE": "true" };

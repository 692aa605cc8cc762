/**
 * @module schema — how schema modules define their zod schemas: each one is built the first time
 * something asks for it, then kept.
 *
 * A function's cold start imports the schema modules of its family, but one request reads one or two
 * of their schemas, and only the OpenAPI generator reads the response ones. Building a zod schema is
 * not free (the first one also warms zod itself up), so none is built at import: a definition is
 * `export const x = /* @__PURE__ *\/ onFirstUse(() => z.object(…))` and a use is `x()`. The pure
 * annotation lets esbuild drop a definition nothing in a bundle uses.
 */
import type * as z from "zod/mini";

/**
 * Wraps a builder so it runs once, on the first call.
 * @example const body = onFirstUse(() => z.strictObject({ title: z.string() })); parseWith(body(), json, "body");
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

/** A schema defined with {@link onFirstUse}. */
export type SchemaDefinition = () => z.ZodMiniType;

/** The type a defined schema parses to. @example type Body = Output<typeof createIssueBody>; */
export type Output<S extends SchemaDefinition> = z.output<ReturnType<S>>;

/** The type a defined schema accepts. */
export type Input<S extends SchemaDefinition> = z.input<ReturnType<S>>;

/**
 * The layers of core/src, lowest first (docs/architecture.md#layers). A module may import its own layer and the
 * layers below it, never one above: domains point one way. Each family's HTTP handlers
 * (`<domain>/routes.ts`, `comments/handlers.ts`) sit on top with the entry points, above the
 * composition root (services.ts) that builds every service, with the route declarations they serve
 * (`<domain>/api.ts`, which may name several domains' schemas). `npm test` runs this file
 * (`npm run deps`); tests/unit/dependency-rules.test.ts proves each rule fails when broken.
 */
const FAMILY_FILES = "^core/src/[^/]+/(routes|handlers|api)\\.ts$";

/** Each layer: a name and the paths of its modules (family files excluded from the domain layers). */
const LAYERS = [
  {
    name: "foundation",
    paths: [
      "^core/src/(errors|config|clock|routes|route-table|schema|deployed|outbound-guard)\\.ts$",
      "^core/src/db/",
      "^core/src/aws/",
    ],
  },
  { name: "shared", paths: ["^core/src/http/", "^core/src/stats/"] },
  { name: "access", paths: ["^core/src/access/"] },
  { name: "issues", paths: ["^core/src/issues/"] },
  { name: "catalog", paths: ["^core/src/catalog/"] },
  { name: "comments and signals", paths: ["^core/src/comments/", "^core/src/signals/"] },
  { name: "templates", paths: ["^core/src/templates/"] },
  { name: "prompts", paths: ["^core/src/prompts/"] },
  { name: "dispatch", paths: ["^core/src/dispatch/"] },
  { name: "events", paths: ["^core/src/events/"] },
  { name: "runners", paths: ["^core/src/runners/"] },
  {
    name: "readers and receivers",
    paths: [
      "^core/src/dashboard/",
      "^core/src/webhooks/",
      "^core/src/openapi/",
      "^core/src/service/",
      "^core/src/console/",
    ],
  },
  { name: "composition root", paths: ["^core/src/services\\.ts$"] },
  {
    name: "families and entry points",
    paths: [FAMILY_FILES, "^core/src/(families|index|lambda|events-lambda|sweeps-lambda)\\.ts$"],
  },
];

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name.replaceAll(" ", "-")}`,
  comment: `${layer.name} may not import a layer above it`,
  severity: "error",
  from: { path: layer.paths, pathNot: FAMILY_FILES },
  to: { path: LAYERS.slice(index + 1).flatMap((above) => above.paths) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "a module may not reach itself through its imports",
      severity: "error",
      from: { path: "^core/src/" },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "core-never-imports-the-client",
      comment:
        "the client (typed client, CLI, MCP server) is built on core, not core on the client: a family whose handler needs the client (the remote MCP endpoint) is declared in core and served from client/",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^client/" },
    },
    {
      name: "tests-never-import-bench",
      comment: "the bench measures, tests assert: tests may not import bench/",
      severity: "error",
      from: { path: "^tests/" },
      to: { path: "^bench/" },
    },
    {
      name: "bench-never-imports-tests",
      comment: "what the bench and the tests share lives in testkit/: the bench may not import tests/",
      severity: "error",
      from: { path: "^bench/" },
      to: { path: "^tests/" },
    },
    {
      name: "testkit-stands-alone",
      comment: "testkit/ serves both the tests and the bench, so it may import neither",
      severity: "error",
      from: { path: "^testkit/" },
      to: { path: "^(tests|bench)/" },
    },
    {
      name: "nothing-ships-the-testkit",
      comment: "testkit/ is test code: nothing that is built, served or published may import it",
      severity: "error",
      from: { path: "^(core|client|functions|infra|console|scripts|bin)/" },
      to: { path: "^testkit/" },
    },
    {
      name: "console-speaks-through-the-client",
      comment:
        "the web console reaches the service through the typed client; of core it may use only the route table, the issue state machine and the issue values (statuses, types), which run in a browser",
      severity: "error",
      from: { path: "^console/src/" },
      to: { path: "^core/", pathNot: "^core/src/(routes|issues/(transitions|issue-values))\\.ts$" },
    },
    {
      name: "nothing-imports-the-console-app",
      comment: "the browser app is built on its own; the service serves its files and never imports them",
      severity: "error",
      from: { path: "^(core|client|functions|infra)/" },
      to: { path: "^console/src/" },
    },
    {
      name: "only-db-speaks-dynamodb",
      comment: "only core/src/db (DynamoDB) and core/src/aws (the other AWS services) import the AWS SDK",
      severity: "error",
      from: { path: "^core/src/", pathNot: "^core/src/(db|aws)/" },
      to: { path: "node_modules/@aws-sdk/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "(^|/)(dist|\\.data|\\.sst)/" },
  },
};

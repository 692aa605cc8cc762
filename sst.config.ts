/// <reference path="./.sst/platform/config.d.ts" />

/** Stages whose data must survive `sst remove` and accidental deletion. */
const PRODUCTION_STAGES = ["prod", "production"];

export default $config({
  app(input) {
    const production = PRODUCTION_STAGES.includes(input?.stage ?? "");
    return {
      name: "kaizen",
      home: "aws",
      removal: production ? "retain" : "remove",
      protect: production,
    };
  },
  async run() {
    await import("./infra/table");
    await import("./infra/secrets");
    await import("./infra/events");
    await import("./infra/sweeps");
    await import("./infra/handoffs");
    // The service function's package copies the built console (infra/api.ts `copyFiles`).
    const { buildConsole } = await import("./console/build");
    await buildConsole();
    const { api } = await import("./infra/api");
    return { api: api.url };
  },
});

import { it } from "vitest";
import { AUTH, jsonPost, testApp } from "../tests/helpers/app.js";
it("dbg", async () => {
  const t = await testApp();
  const made: any = await (await t.app.request("/api/event-destinations", jsonPost({ url: "https://a.example/x", events: ["issue.created"] }))).json();
  const r = await t.app.request(`/api/event-destinations/${made.data.id}`, { method: "PATCH", headers: { ...AUTH, "Content-Type": "application/json" }, body: JSON.stringify({ events: ["experiment.decided"], active: false }) });
  console.log(r.status, await r.text());
});

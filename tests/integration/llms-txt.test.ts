/** `GET /llms.txt` served: public, plain text, on the deployment's base URL or the address asked. */
import { describe, expect, it } from "vitest";
import { testApp } from "../helpers/app.js";
import { testConfig } from "../helpers/db.js";

describe("GET /llms.txt", () => {
  it("needs no key and links on the address the request came to", async () => {
    const t = await testApp();
    const answer = await t.app.request("http://kaizen.internal:4242/llms.txt");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await answer.text();
    expect(text).toContain("http://kaizen.internal:4242/api/dispatch/claim");
    expect(text).toContain("(http://kaizen.internal:4242/api/openapi.json)");
    expect(text).toContain("[Remote MCP](http://kaizen.internal:4242/mcp)");
  });

  it("links on PUBLIC_BASE_URL when the deployment sets it", async () => {
    const base = await testApp();
    const t = await testApp({
      config: {
        ...testConfig({ tableName: base.tableName, endpoint: base.endpoint }),
        publicBaseUrl: "https://kaizen.example.com",
      },
    });
    const text = await (await t.app.request("http://10.0.0.7/llms.txt")).text();
    expect(text).toContain("https://kaizen.example.com/api/dispatch/claim");
    expect(text).toContain("[Remote MCP](https://kaizen.example.com/mcp)");
    expect(text).not.toContain("10.0.0.7");
  });
});

/**
 * The console's Markdown (console/src/markdown.ts): what a description or comment may contain and
 * what reaches the page of it. Raw HTML is text, links go only to web and mail addresses or paths,
 * images stay links, and no inline style is written (the console's CSP, docs/api.md#console).
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown, safeLink } from "../../../console/src/markdown.js";

describe("the console's Markdown", () => {
  it("renders the usual Markdown: emphasis, lists, code, links and bare URLs", () => {
    const html = renderMarkdown(
      "**Steps**\n\n1. open `/cart`\n2. click *Pay*\n\n[the run](https://ci.example/runs/7) or https://ci.example/runs/8",
    );
    expect(html).toContain("<strong>Steps</strong>");
    expect(html).toContain("<ol>\n<li>open <code>/cart</code></li>");
    expect(html).toContain("<em>Pay</em>");
    expect(html).toContain('<a href="https://ci.example/runs/7" rel="noopener noreferrer nofollow">the run</a>');
    expect(html).toContain('<a href="https://ci.example/runs/8" rel="noopener noreferrer nofollow">');
  });

  it("shows raw HTML as text, escaped", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)"> <b>bold</b>');
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
  });

  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "ftp://example.com/x",
  ])("makes no link to %s", (url) => {
    expect(safeLink(url)).toBe(false);
    const html = renderMarkdown(`[click](${url}) <${url}>`);
    expect(html).not.toContain("<a ");
    expect(html).not.toMatch(/href="(javascript|vbscript|data|file|ftp):/i);
  });

  it.each([
    "https://example.com/a?b=c",
    "http://localhost:4242/x",
    "mailto:ops@example.com",
    "/app/issues/KZN-3",
    "#top",
  ])("links to %s", (url) => {
    expect(safeLink(url)).toBe(true);
    expect(renderMarkdown(`[there](${url})`)).toContain("<a href=");
  });

  it("keeps images as links, so nothing is loaded from another host", () => {
    const html = renderMarkdown("![chart](https://images.example/chart.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain('<a href="https://images.example/chart.png"');
  });

  it("aligns table cells by class, never by an inline style", () => {
    const html = renderMarkdown("| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |");
    expect(html).not.toContain("style=");
    expect(html).toContain('<th class="align-left">a</th>');
    expect(html).toContain('<td class="align-center">2</td>');
    expect(html).toContain('<td class="align-right">3</td>');
  });
});

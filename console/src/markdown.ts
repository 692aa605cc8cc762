/**
 * @module console/markdown — issue descriptions and comments as Markdown, rendered so that nothing
 * the text says can run or load: raw HTML is shown as text (escaped), links go only to web and mail
 * addresses or this console's own paths, images stay links (an image from another host is what the
 * CSP forbids, docs/api.md#console), and table alignment is a class, never an inline style.
 */
import MarkdownIt from "markdown-it";

/** A URL scheme at the start of a link: `javascript:`, `https:`. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const ALLOWED_SCHEMES = new Set(["http", "https", "mailto"]);

/** Whether a link may point at `url`: a web or mail address, or one without a scheme (a path, an anchor). */
export function safeLink(url: string): boolean {
  const scheme = SCHEME.exec(url.trim())?.[1];
  return scheme === undefined || ALLOWED_SCHEMES.has(scheme.toLowerCase());
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
md.disable("image");
md.validateLink = safeLink;
// Table cells align by class: the console's CSP has no `unsafe-inline` for styles.
md.core.ruler.push("alignment_as_class", (state) => {
  for (const token of state.tokens) {
    const align = /^text-align:(left|right|center)$/.exec(String(token.attrGet("style") ?? ""))?.[1];
    if (!align) continue;
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
    token.attrJoin("class", `align-${align}`);
  }
});
const renderLink = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet("rel", "noopener noreferrer nofollow");
  return renderLink ? renderLink(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
};

/**
 * `text` (Markdown) as HTML safe to place in a console page.
 * @example renderMarkdown("**Steps**: <script>") // "<p><strong>Steps</strong>: &lt;script&gt;</p>\n"
 */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

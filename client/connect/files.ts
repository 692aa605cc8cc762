/**
 * @module client/connect/files — the file edits `kaizen connect` makes, as pure functions from a
 * file's current text to its new text. Each is idempotent: applied to its own output it changes
 * nothing, so a second `kaizen connect` leaves every file as it was.
 */

/** An MCP server entry as `.mcp.json` (Claude Code) and `.cursor/mcp.json` (Cursor) hold them. */
export interface McpServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** An edit `kaizen connect` could not make without losing something of the user's. */
export class ConnectFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectFileError";
  }
}

/** The indentation a JSON text uses (its first indented line), so a rewrite keeps the user's style. */
function jsonIndent(text: string): string | number {
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0];
  return indent ?? 2;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * An MCP configuration with `mcpServers[name]` set to `entry`: every other server and key kept in
 * its place, the text returned untouched when the entry is already there as it should be. A file
 * that is not a JSON object is refused rather than overwritten.
 * @example mergeMcpConfig('{"mcpServers": {"db": {"command": "db-mcp"}}}', "kaizen", { command: "kaizen", args: ["mcp"] })
 */
export function mergeMcpConfig(existing: string | undefined, name: string, entry: McpServerEntry): string {
  if (existing === undefined || existing.trim() === "") {
    return `${JSON.stringify({ mcpServers: { [name]: entry } }, null, 2)}\n`;
  }
  let config: unknown;
  try {
    config = JSON.parse(existing);
  } catch (error) {
    throw new ConnectFileError(`is not valid JSON (${(error as Error).message}); fix or remove it and run again`);
  }
  if (!isRecord(config)) throw new ConnectFileError("is not a JSON object");
  const servers = config.mcpServers ?? {};
  if (!isRecord(servers)) throw new ConnectFileError('has an "mcpServers" that is not an object');
  if (sameJson(servers[name], entry)) return existing;
  const merged = { ...config, mcpServers: { ...servers, [name]: entry } };
  return `${JSON.stringify(merged, null, jsonIndent(existing))}\n`;
}

/**
 * `text` with `block` appended after a blank line, unless `text` already mentions `marker` (the
 * pointer was added before, or the user wrote their own). A missing file becomes just the block.
 * @example appendOnce("# Agents\n", "See .kaizen/AGENTS.md.", ".kaizen/AGENTS.md") // "# Agents\n\nSee .kaizen/AGENTS.md.\n"
 */
export function appendOnce(text: string | undefined, block: string, marker: string): string {
  const body = `${block.trimEnd()}\n`;
  if (text === undefined || text.trim() === "") return body;
  if (text.includes(marker)) return text;
  const separator = text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${separator}${body}`;
}

/**
 * An env file (`NAME=value` lines) with each of `values` set: a line already naming the variable is
 * replaced where it stands, a missing one appended; comments and other variables stay. A value
 * `undefined` removes its line.
 * @example mergeEnvFile("# mine\nKAIZEN_URL=old\n", { KAIZEN_URL: "http://localhost:4242" }) // "# mine\nKAIZEN_URL=http://localhost:4242\n"
 */
export function mergeEnvFile(
  existing: string | undefined,
  values: Record<string, string | undefined>,
  header = "",
): string {
  const lines =
    existing === undefined || existing === ""
      ? header.split("\n").filter(Boolean)
      : existing.replace(/\n$/, "").split("\n");
  const pending = new Map(Object.entries(values));
  const out: string[] = [];
  for (const line of lines) {
    const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (name === undefined || !pending.has(name)) {
      out.push(line);
      continue;
    }
    const value = pending.get(name);
    pending.delete(name);
    if (value !== undefined) out.push(`${name}=${value}`);
  }
  for (const [name, value] of pending) if (value !== undefined) out.push(`${name}=${value}`);
  return `${out.join("\n")}\n`;
}

/**
 * An ignore file (`.gitignore` syntax) that lists `pattern`, added as a line unless it is there.
 * @example ensureIgnored("*.log\n", "env") // "*.log\nenv\n"
 */
export function ensureIgnored(existing: string | undefined, pattern: string, comment?: string): string {
  const lines = (existing ?? "").split("\n").map((line) => line.trim());
  if (lines.includes(pattern)) return existing ?? "";
  const head = existing && !existing.endsWith("\n") ? `${existing}\n` : (existing ?? "");
  return `${head}${comment ? `# ${comment}\n` : ""}${pattern}\n`;
}

/** @module console/components — the pieces every page is made of. */
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import type { KaizenApiError } from "../../client/client.js";
import { renderMarkdown } from "./markdown.js";
import { allowed, reachable, session, signOut, useStore } from "./session.js";

/**
 * The console's pages, in the order the navigation lists them; `shown` says whether the signed-in key
 * may read what the page shows (the keys and the audit log: an admin key; the pages of figures that
 * span every project: a key not narrowed to projects).
 */
export const NAV: readonly { href: string; label: string; shown?: () => boolean }[] = [
  { href: "/app", label: "Overview" },
  { href: "/app/issues", label: "Issues" },
  { href: "/app/queue", label: "Queue" },
  { href: "/app/projects", label: "Projects" },
  { href: "/app/goals", label: "Goals" },
  { href: "/app/labels", label: "Labels" },
  { href: "/app/activity", label: "Activity", shown: () => allowed("GET", "/api/dashboard/activity") },
  { href: "/app/prompts", label: "Prompts", shown: () => allowed("GET", "/api/dashboard/prompts") },
  { href: "/app/agents", label: "Agents", shown: () => allowed("GET", "/api/dashboard/agents") },
  { href: "/app/providers", label: "Providers" },
  { href: "/app/keys", label: "Keys", shown: () => allowed("GET", "/api/keys") },
  { href: "/app/audit", label: "Audit", shown: () => allowed("GET", "/api/audit") },
];

export function Layout({ children }: { children: ComponentChildren }) {
  const { path } = useLocation();
  const online = useStore(reachable);
  const { caller } = useStore(session);
  const current = (href: string) => (href === "/app" ? path === "/app" : path === href || path.startsWith(`${href}/`));
  return (
    <>
      <header class="top">
        <a class="brand" href="/app">
          Kaizen
        </a>
        <nav aria-label="Console">
          <ul>
            {NAV.filter(({ shown }) => shown?.() ?? true).map(({ href, label }) => (
              <li key={href}>
                <a href={href} aria-current={current(href) ? "page" : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {caller ? (
          <span class="who">
            {caller.name} · {caller.scopes.join(", ")}
            {caller.projectIds
              ? ` · ${caller.projectIds.length} project${caller.projectIds.length === 1 ? "" : "s"}`
              : ""}
          </span>
        ) : null}
        <button type="button" class="quiet" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      {online ? null : (
        <div class="banner" role="alert">
          Cannot reach the Kaizen API at {location.origin}. Retrying every few seconds…
        </div>
      )}
      <main id="main">{children}</main>
    </>
  );
}

/**
 * What a failed call said, with what to do about it; `conflict` and `stale` say what a 409 and a 412
 * mean where the change was not to an issue.
 */
export function Failure({
  error,
  onReload,
  conflict = "The change conflicts with the issue's current state (someone or something moved it).",
  stale = "The issue changed since this page loaded it, so the change was not applied.",
}: {
  error: KaizenApiError | undefined;
  onReload?: () => void;
  conflict?: string;
  stale?: string;
}) {
  if (!error) return null;
  const advice: Record<number, string> = {
    0: "The API could not be reached.",
    409: conflict,
    412: stale,
  };
  return (
    <div class="failure" role="alert">
      <p>
        <strong>{error.status === 0 ? "Unreachable" : `${error.status}`}</strong> {error.error}
        {error.details?.length ? (
          <span>
            {": "}
            {error.details.map((detail) => `${detail.path} ${detail.message}`).join("; ")}
          </span>
        ) : null}
      </p>
      {advice[error.status] ? <p>{advice[error.status]}</p> : null}
      {onReload && (error.status === 409 || error.status === 412 || error.status === 0) ? (
        <button type="button" onClick={onReload}>
          Reload
        </button>
      ) : null}
    </div>
  );
}

/**
 * In place of figures that span every project, for a key narrowed to some: the API refuses it those
 * (403), so the page says why they are missing instead of showing the refusal.
 */
export function SpansEveryProject({ what }: { what: string }) {
  return (
    <p class="note" role="note">
      This key is limited to its projects, and {what} span every project, so they are not shown. The issues, queue and
      projects pages show what its projects hold.
    </p>
  );
}

/**
 * A table's head: one column header per label, those in `numeric` right-aligned (as their cells
 * are), those in `unseen` read only by assistive technology.
 */
export function TableHead({
  columns,
  numeric = [],
  unseen = [],
}: {
  columns: readonly string[];
  numeric?: readonly string[];
  unseen?: readonly string[];
}) {
  return (
    <thead>
      <tr>
        {columns.map((label) => (
          <th key={label} scope="col" class={numeric.includes(label) ? "num" : undefined}>
            {unseen.includes(label) ? <span class="visually-hidden">{label}</span> : label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** One figure of a summary row. */
export function Figure({ label, value, hint }: { label: string; value: ComponentChildren; hint?: string }) {
  return (
    <div class="figure">
      <div class="figure-value">{value}</div>
      <div class="figure-label">{label}</div>
      {hint ? <div class="muted small">{hint}</div> : null}
    </div>
  );
}

export function Badge({ kind, children }: { kind: string; children: ComponentChildren }) {
  return <span class={`badge badge-${kind.replace(/[^a-z_]/g, "")}`}>{children}</span>;
}

/** A timestamp, readable, with the exact value on hover; `precise` adds the seconds. */
export function When({ at, precise = false }: { at: string | null | undefined; precise?: boolean }) {
  if (!at) return <span class="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={at}>
      {date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: precise ? "medium" : "short" })}
    </time>
  );
}

/** Previous / next for a list page; `onPage` gets the page to show. */
export function Pager({
  page,
  limit,
  total,
  onPage,
}: {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages} ({total} in all)
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** The issue's identifier as a link to its page. */
export function IssueLink({ issue }: { issue: { identifier: string; title?: string } }) {
  return <a href={`/app/issues/${issue.identifier}`}>{issue.identifier}</a>;
}

/** The issue's title as a link to its page: in a list, an item's title is how one opens it. */
export function TitleLink({ issue }: { issue: { identifier: string; title: string } }) {
  return <a href={`/app/issues/${issue.identifier}`}>{issue.title}</a>;
}

/** Markdown (a description, a comment) rendered safely: see ./markdown.ts. */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  // renderMarkdown escapes raw HTML and keeps only safe links, so its output may be set as HTML.
  return <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A label's colour as a small square: an SVG fill, since the CSP allows no inline style. */
export function Swatch({ color }: { color: string }) {
  return (
    <svg class="swatch" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
      <rect width="12" height="12" rx="2" fill={color} />
    </svg>
  );
}

/** The value of the form field an input event came from. */
export function fieldValue(event: Event): string {
  return (event.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement).value;
}

/** A page's query string as numbers with defaults: `?page=2`. */
export function pageOf(query: Record<string, string>): number {
  const page = Number(query.page);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/**
 * The question asked before an action that cannot be taken back: it takes the place of the button
 * that asked, and the keyboard's focus goes to its "yes" as it appears. Give it a `key` when one
 * question may follow another in its place, so the focus moves again.
 */
export function Confirm({
  question,
  yes,
  busy,
  onYes,
  onCancel,
  children,
}: {
  question: ComponentChildren;
  /** The label of the button that acts ("Yes, delete it"). */
  yes: string;
  busy: boolean;
  onYes: () => void;
  onCancel: () => void;
  /** What the action does, beside the question. */
  children?: ComponentChildren;
}) {
  const yesButton = useRef<HTMLButtonElement>(null);
  useEffect(() => yesButton.current?.focus(), []);
  return (
    <fieldset class="confirm">
      <legend>{question}</legend>
      {children}
      <button type="button" ref={yesButton} disabled={busy} onClick={onYes}>
        {yes}
      </button>{" "}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </fieldset>
  );
}

/**
 * A button whose action is asked first: pressed, the {@link Confirm} question takes its place; its
 * "yes" runs `onYes`, and once that is done (or on "Cancel") the button is back.
 */
export function AskFirst({
  button,
  label,
  disabled = false,
  question,
  yes,
  busy,
  onYes,
  children,
}: {
  /** The button's text ("Revoke"). */
  button: string;
  /** Its accessible name, when the text alone does not say what it acts on. */
  label?: string;
  disabled?: boolean;
  question: ComponentChildren;
  yes: string;
  busy: boolean;
  onYes: () => unknown;
  /** What the action does, beside the question. */
  children?: ComponentChildren;
}) {
  const [confirming, setConfirming] = useState(false);
  return confirming ? (
    <Confirm
      question={question}
      yes={yes}
      busy={busy}
      onYes={async () => {
        await onYes();
        setConfirming(false);
      }}
      onCancel={() => setConfirming(false)}
    >
      {children}
    </Confirm>
  ) : (
    <button type="button" aria-label={label} disabled={disabled} onClick={() => setConfirming(true)}>
      {button}
    </button>
  );
}

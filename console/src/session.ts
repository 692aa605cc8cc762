/**
 * @module console/session — who the console is signed in as and whether the API answers.
 *
 * The API key lives in this tab's `sessionStorage` only: never in the bundle, a URL, a cookie or a
 * log. It is gone when the tab closes; another tab asks for it again. Beside it the tab keeps who the
 * key is (`GET /api/me`, read once when signing in), so the pages offer only what it may do
 * (`allowed`). A 401 from any call signs the tab out with a notice, and the page the operator was on
 * stays in the address bar, so signing in again lands there.
 */
import { useEffect, useReducer } from "preact/hooks";
import { createKaizenClient, KaizenApiError, type KaizenClient } from "../../client/client.js";
import { type ApiMethod, type ApiPath, allows, type Caller, refusedCaller } from "./access.js";

const STORAGE_KEY = "kaizen.console.apiKey";
const CALLER_KEY = "kaizen.console.caller";

/** A value the pages read and re-render on. */
export interface Store<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Re-renders the component whenever `store` changes; returns its value. */
export function useStore<T>(store: Store<T>): T {
  const [, changed] = useReducer((n: number, _change: undefined) => n + 1, 0);
  useEffect(() => store.subscribe(() => changed(undefined)), [store]);
  return store.get();
}

export interface SessionState {
  /** The API key, or null when signed out. */
  key: string | null;
  /** Why the tab was signed out, shown on the sign-in form. */
  notice: string | null;
  /** Who the key is; null until `GET /api/me` said. */
  caller: Caller | null;
}

function storedCaller(): Caller | null {
  try {
    return JSON.parse(sessionStorage.getItem(CALLER_KEY) ?? "null") as Caller | null;
  } catch {
    return null;
  }
}

const storedKey = sessionStorage.getItem(STORAGE_KEY);
export const session = createStore<SessionState>({
  key: storedKey,
  notice: null,
  caller: storedKey ? storedCaller() : null,
});

/** Whether the last call reached the API; false shows the banner while the pages retry. */
export const reachable = createStore(true);

let client: { key: string; api: KaizenClient } | undefined;

/** The typed client for the signed-in key. */
export function api(): KaizenClient {
  const { key } = session.get();
  if (!key) throw new KaizenApiError({ status: 401, error: "Not signed in", method: "GET", url: location.href });
  if (client?.key !== key) client = { key, api: createKaizenClient({ baseUrl: location.origin, token: key }) };
  return client.api;
}

/**
 * Who `kaizen`'s key is: `GET /api/me`; a key it refuses (403: one without `read`) holds `dispatch`
 * alone. Any other failure is thrown.
 */
export async function identify(kaizen: KaizenClient): Promise<Caller> {
  try {
    const { data } = await kaizen.GET("/api/me");
    if (!data) throw new Error("GET /api/me answered no caller");
    return data.data;
  } catch (thrown) {
    const error = asApiError(thrown);
    if (error.status === 403) return refusedCaller(error.error);
    throw error;
  }
}

export function signIn(key: string, caller: Caller): void {
  sessionStorage.setItem(STORAGE_KEY, key);
  sessionStorage.setItem(CALLER_KEY, JSON.stringify(caller));
  session.set({ key, notice: null, caller });
}

/** Keeps who the signed-in key is, once `GET /api/me` said (a tab signed in before it was kept). */
export function setCaller(caller: Caller): void {
  const { key } = session.get();
  if (!key) return;
  sessionStorage.setItem(CALLER_KEY, JSON.stringify(caller));
  session.set({ key, notice: null, caller });
}

export function signOut(notice: string | null = null): void {
  sessionStorage.removeItem(STORAGE_KEY);
  sessionStorage.removeItem(CALLER_KEY);
  client = undefined;
  session.set({ key: null, notice, caller: null });
}

/**
 * Whether the signed-in key may call `method` `path` (./access.ts): what a page asks before it
 * offers an action or reads what the key cannot.
 * @example allowed("POST", "/api/issues") ? <NewIssueButton /> : null
 */
export function allowed<P extends ApiPath>(method: ApiMethod<P>, path: P): boolean {
  return allows(session.get().caller, method, path);
}

/** Any failure as the client's error type. */
export function asApiError(error: unknown): KaizenApiError {
  if (error instanceof KaizenApiError) return error;
  return new KaizenApiError({
    status: 0,
    error: error instanceof Error ? error.message : String(error),
    method: "GET",
    url: location.href,
    cause: error,
  });
}

/**
 * What every failed call does besides showing its message: a 401 signs the tab out; an answer of
 * any kind means the API is reachable again, no answer at all means it is not.
 */
export function noteFailure(error: KaizenApiError): void {
  reachable.set(error.status !== 0);
  if (error.status === 401) signOut("The API refused this key (401). Sign in with a valid key.");
}

export function noteSuccess(): void {
  reachable.set(true);
}

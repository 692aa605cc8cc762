/**
 * @module console/resource — reading the API from a page: a load function, its answer or its
 * error, a reload, and polling so figures refresh on their own. While the API cannot be reached,
 * every loaded resource tries again every few seconds (the banner says so).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { KaizenApiError, KaizenClient } from "../../client/client.js";
import { api, asApiError, noteFailure, noteSuccess } from "./session.js";

/** How often figures refresh on their own. */
export const REFRESH_MS = 10_000;
/** How soon a load that could not reach the API tries again. */
export const RETRY_MS = 3_000;

export interface Resource<T> {
  data: T | undefined;
  error: KaizenApiError | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * Loads `load` now, again whenever `key` changes or `reload()` is called, and every `refreshMs`
 * (0: only on demand). The last answer stays shown while a refresh fails.
 * @example const issues = useResource((kaizen) => kaizen.GET("/api/issues").then(({ data }) => data), "all", REFRESH_MS);
 */
export function useResource<T>(load: (kaizen: KaizenClient) => Promise<T>, key: string, refreshMs = 0): Resource<T> {
  const [state, setState] = useState<Omit<Resource<T>, "reload">>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // `key` and `round` are what re-runs the load.
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState((previous) => ({ ...previous, loading: true }));
    const run = async () => {
      let wait = refreshMs;
      try {
        const data = await loadRef.current(api());
        if (!live) return;
        noteSuccess();
        setState({ data, error: undefined, loading: false });
      } catch (thrown) {
        if (!live) return;
        const error = asApiError(thrown);
        noteFailure(error);
        if (error.status === 0) wait = RETRY_MS;
        setState((previous) => ({ ...previous, error, loading: false }));
      }
      if (live && wait > 0) timer = setTimeout(run, wait);
    };
    void run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, round, refreshMs]);

  return { ...state, reload: () => setRound((n) => n + 1) };
}

/**
 * Runs a change (a PATCH, a promote) and keeps its error to show; `busy` while it runs.
 * @example const save = useAction(); await save.run((kaizen) => kaizen.PATCH(…));
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<KaizenApiError | undefined>(undefined);
  return {
    busy,
    error,
    clear: () => setError(undefined),
    async run<T>(change: (kaizen: KaizenClient) => Promise<T>): Promise<T | undefined> {
      setBusy(true);
      setError(undefined);
      try {
        const result = await change(api());
        noteSuccess();
        return result;
      } catch (thrown) {
        const failure = asApiError(thrown);
        noteFailure(failure);
        setError(failure);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
  };
}

/** @module console/signin — the key form every page shows until the tab holds a key the API accepts. */
import { useState } from "preact/hooks";
import { createKaizenClient } from "../../client/client.js";
import { Failure } from "./components.js";
import { asApiError, type SessionState, signIn } from "./session.js";

export function SignIn({ state }: { state: SessionState }) {
  const [key, setKey] = useState("");
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<ReturnType<typeof asApiError> | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    const candidate = key.trim();
    if (!candidate) return;
    setChecking(true);
    setError(undefined);
    try {
      // One cheap authenticated read proves the key before the page loads with it.
      await createKaizenClient({ baseUrl: location.origin, token: candidate, attempts: 1 }).GET("/api/dashboard/stats");
      setKey("");
      signIn(candidate);
    } catch (thrown) {
      setError(asApiError(thrown));
    } finally {
      setChecking(false);
    }
  };
  return (
    <main id="main" class="signin">
      <h1>Kaizen console</h1>
      <p>Sign in with the service's API key. It stays in this tab only and is forgotten when the tab closes.</p>
      {state.notice ? (
        <p class="failure" role="alert">
          {state.notice}
        </p>
      ) : null}
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          placeholder="kaizen_…"
          value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)}
          required
        />
        <button type="submit" disabled={checking}>
          {checking ? "Checking…" : "Sign in"}
        </button>
      </form>
      {error?.status === 401 ? (
        <p class="failure" role="alert">
          The API refused this key (401).
        </p>
      ) : (
        <Failure error={error} />
      )}
      <p class="muted small">
        <code>npm start</code> prints the local key; it is also in <code>.data/api-key</code>.
      </p>
    </main>
  );
}

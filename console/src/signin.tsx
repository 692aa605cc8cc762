/**
 * @module console/signin — the key form every page shows until the tab holds a key the API accepts, and
 * the page of a key that may only claim and work dispatches.
 */
import { useState } from "preact/hooks";
import { createKaizenClient } from "../../client/client.js";
import type { Caller } from "./access.js";
import { Failure } from "./components.js";
import { asApiError, identify, type SessionState, signIn, signOut } from "./session.js";

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
      // Who the key is proves it before the page loads with it, and says what the pages may offer.
      const caller = await identify(createKaizenClient({ baseUrl: location.origin, token: candidate, attempts: 1 }));
      setKey("");
      signIn(candidate, caller);
    } catch (thrown) {
      setError(asApiError(thrown));
    } finally {
      setChecking(false);
    }
  };
  return (
    <main id="main" class="signin">
      <h1>Kaizen console</h1>
      <p>
        Sign in with an API key: the service's own, or one made on the keys page. It stays in this tab only and is
        forgotten when the tab closes. The console offers what the key may do.
      </p>
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

/** What a key without `read` (`dispatch` alone) sees: it can use none of the console's pages. */
export function DispatchOnly({ caller }: { caller: Caller }) {
  return (
    <main id="main" class="signin">
      <h1>Kaizen console</h1>
      <p>
        {caller.name ? (
          <>
            The key <strong>{caller.name}</strong> can
          </>
        ) : (
          "This key can"
        )}{" "}
        only claim and work dispatches: agents use it with the API, and it reads nothing the console shows.
      </p>
      <p>Sign in with a key that holds the read scope to use the console.</p>
      <button type="button" onClick={() => signOut()}>
        Sign out
      </button>
    </main>
  );
}

/**
 * @module console/main — the web console (docs/api.md#console): one page per URL under `/app`, each asking
 * for the API key first when the tab has none, then offering what that key may do (./access.ts). The
 * paths here are the `/app` routes of the service family (core/src/routes.ts); the browser test opens
 * every one of those and finds its page here.
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { LocationProvider, Route, Router } from "preact-iso";
import type { KaizenApiError } from "../../client/client.js";
import { allows } from "./access.js";
import { Failure, Layout, Loading } from "./components.js";
import { ActivityPage } from "./pages/activity.js";
import { AgentsPage } from "./pages/agents.js";
import { AuditPage } from "./pages/audit.js";
import { GoalsPage } from "./pages/goals.js";
import { IssuePage } from "./pages/issue.js";
import { IssuesPage } from "./pages/issues.js";
import { KeysPage } from "./pages/keys.js";
import { LabelsPage } from "./pages/labels.js";
import { NotFoundPage } from "./pages/not-found.js";
import { OverviewPage } from "./pages/overview.js";
import { ProjectPage } from "./pages/project.js";
import { ProjectsPage } from "./pages/projects.js";
import { PromptsPage } from "./pages/prompts.js";
import { ProvidersPage } from "./pages/providers.js";
import { QueuePage } from "./pages/queue.js";
import { TemplatePage } from "./pages/template.js";
import { api, asApiError, identify, noteFailure, session, setCaller, useStore } from "./session.js";
import { DispatchOnly, SignIn } from "./signin.js";
import "./styles.css";
import "./forms.css";

/** A tab that holds a key but not who it is (signed in before the console kept it): asks `GET /api/me` once. */
function Identify() {
  const [error, setError] = useState<KaizenApiError | undefined>(undefined);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    identify(api()).then(
      (caller) => live && setCaller(caller),
      (thrown) => {
        if (!live) return;
        const failure = asApiError(thrown);
        noteFailure(failure);
        setError(failure);
      },
    );
    return () => {
      live = false;
    };
  }, [round]);
  return (
    <main id="main" class="signin">
      <h1>Kaizen console</h1>
      {error ? (
        <>
          <Failure error={error} />
          <button
            type="button"
            onClick={() => {
              setError(undefined);
              setRound((n) => n + 1);
            }}
          >
            Try again
          </button>
        </>
      ) : (
        <Loading what="who this key is" />
      )}
    </main>
  );
}

function Console() {
  const state = useStore(session);
  if (!state.key) return <SignIn state={state} />;
  if (!state.caller) return <Identify />;
  if (!allows(state.caller, "GET", "/api/me")) return <DispatchOnly caller={state.caller} />;
  return (
    <Layout>
      <Router>
        <Route path="/app" component={OverviewPage} />
        <Route path="/app/issues" component={IssuesPage} />
        <Route path="/app/issues/:id" component={IssuePage} />
        <Route path="/app/queue" component={QueuePage} />
        <Route path="/app/activity" component={ActivityPage} />
        <Route path="/app/prompts" component={PromptsPage} />
        <Route path="/app/prompts/:id" component={TemplatePage} />
        <Route path="/app/agents" component={AgentsPage} />
        <Route path="/app/providers" component={ProvidersPage} />
        <Route path="/app/projects" component={ProjectsPage} />
        <Route path="/app/projects/:id" component={ProjectPage} />
        <Route path="/app/goals" component={GoalsPage} />
        <Route path="/app/labels" component={LabelsPage} />
        <Route path="/app/keys" component={KeysPage} />
        <Route path="/app/audit" component={AuditPage} />
        <Route default component={NotFoundPage} />
      </Router>
    </Layout>
  );
}

const root = document.getElementById("app");
if (root) {
  root.replaceChildren();
  render(
    <LocationProvider scope="/app">
      <Console />
    </LocationProvider>,
    root,
  );
}

/**
 * @module console/main — the web console (docs/api.md#console): one page per URL under `/app`, each asking
 * for the API key first when the tab has none. The paths here are the `/app` routes of the service
 * family (core/src/routes.ts); the browser test opens every one of those and finds its page here.
 */
import { render } from "preact";
import { LocationProvider, Route, Router } from "preact-iso";
import { Layout } from "./components.js";
import { ActivityPage } from "./pages/activity.js";
import { AgentsPage } from "./pages/agents.js";
import { GoalsPage } from "./pages/goals.js";
import { IssuePage } from "./pages/issue.js";
import { IssuesPage } from "./pages/issues.js";
import { LabelsPage } from "./pages/labels.js";
import { NotFoundPage } from "./pages/not-found.js";
import { OverviewPage } from "./pages/overview.js";
import { ProjectPage } from "./pages/project.js";
import { ProjectsPage } from "./pages/projects.js";
import { PromptsPage } from "./pages/prompts.js";
import { ProvidersPage } from "./pages/providers.js";
import { QueuePage } from "./pages/queue.js";
import { TemplatePage } from "./pages/template.js";
import { session, useStore } from "./session.js";
import { SignIn } from "./signin.js";
import "./styles.css";
import "./forms.css";

function Console() {
  const state = useStore(session);
  if (!state.key) return <SignIn state={state} />;
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

/**
 * @module console/pages/providers — `/app/providers`: the receiver URL to paste into each provider,
 * whether its secret is configured (never its value), and its latest webhook deliveries, each with
 * the source it named and the project that source routed it to.
 */
import { useProjects } from "../catalog.js";
import { Badge, Failure, IssueLink, Loading, TableHead, When } from "../components.js";
import { REFRESH_MS, useResource } from "../resource.js";

const LATEST = 5;

function WebhookDeliveries({ source }: { source: string }) {
  const signals = useResource(
    async (kaizen) =>
      (await kaizen.GET("/api/signals", { params: { query: { source, limit: LATEST } } })).data?.data ?? [],
    source,
    REFRESH_MS,
  );
  const projects = useProjects();
  if (signals.error) return <Failure error={signals.error} />;
  if (!signals.data) return <Loading what="webhook deliveries" />;
  if (signals.data.length === 0) return <p class="muted">No webhook delivery yet.</p>;
  return (
    <table>
      <TableHead columns={["Received", "Event", "Title", "Action", "Source", "Project", "Issue"]} />
      <tbody>
        {signals.data.map((signal) => (
          <tr key={signal.id}>
            <td>
              <When at={signal.receivedAt} />
            </td>
            <td>
              <code>{signal.type}</code>
            </td>
            <td>{signal.issueId ? <a href={`/app/issues/${signal.issueId}`}>{signal.title}</a> : signal.title}</td>
            <td>{signal.action}</td>
            <td>{signal.sourceKey ? <code>{signal.sourceKey}</code> : <span class="muted">—</span>}</td>
            <td>
              {signal.projectId ? (
                <a href={`/app/projects/${signal.projectId}`}>
                  {projects.data?.find((project) => project.id === signal.projectId)?.name ?? signal.projectId}
                </a>
              ) : (
                <span class="muted">—</span>
              )}
            </td>
            <td>
              {signal.issueId ? <IssueLink issue={{ identifier: signal.issueId }} /> : <span class="muted">—</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ProvidersPage() {
  const providers = useResource(
    async (kaizen) => (await kaizen.GET("/api/providers")).data?.data,
    "providers",
    REFRESH_MS,
  );
  return (
    <section>
      <h1>Providers</h1>
      <p class="muted">
        Paste each receiver URL into the provider's webhook settings, with the secret the service holds.
      </p>
      <Failure error={providers.error} onReload={providers.reload} />
      {!providers.data ? (
        <Loading what="the providers" />
      ) : (
        providers.data.map((provider) => (
          <section key={provider.provider} class="provider" aria-labelledby={`provider-${provider.provider}`}>
            <h2 id={`provider-${provider.provider}`}>
              {provider.name} <span class="muted">({provider.provider})</span>
            </h2>
            <dl>
              <dt>Receiver URL</dt>
              <dd>
                <code class="copyable">{provider.receiverUrl}</code>
              </dd>
              <dt>Secret</dt>
              <dd>
                {provider.secret.configured ? (
                  <Badge kind="done">configured</Badge>
                ) : (
                  <Badge kind="failed">not configured</Badge>
                )}{" "}
                <code>{provider.secret.variable}</code>
              </dd>
              <dt>Signature headers</dt>
              <dd>
                {provider.signatureHeaders.map((header) => (
                  <code key={header}>{header} </code>
                ))}
              </dd>
              <dt>Set-up guide</dt>
              <dd>
                <code>{provider.guide}</code>
              </dd>
            </dl>
            <h3>Latest webhook deliveries</h3>
            <WebhookDeliveries source={provider.provider} />
          </section>
        ))
      )}
    </section>
  );
}

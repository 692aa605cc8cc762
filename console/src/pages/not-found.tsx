/** @module console/pages/not-found — any other path under `/app`. */
export function NotFoundPage() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        No console page lives here. <a href="/app">Back to the overview</a>.
      </p>
    </section>
  );
}

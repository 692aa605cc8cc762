/**
 * @module console/pages/labels — `/app/labels`: the labels issues can carry, a form for a new one
 * (a name unique in any case, a colour) and a delete, asked first. The API refuses to delete a
 * label issues still use (409) and says how many.
 */
import { useState } from "preact/hooks";
import { type Label, useLabels } from "../catalog.js";
import { AskFirst, Failure, fieldValue, Loading, Swatch, TableHead, When } from "../components.js";
import { useAction } from "../resource.js";
import { allowed } from "../session.js";

function CreateLabel({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState("");
  const [color, setColor] = useState("#1f5fbf");
  const create = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return;
    const created = await create.run((kaizen) => kaizen.POST("/api/labels", { body: { name: name.trim(), color } }));
    if (created) {
      setName("");
      onCreated();
    }
  };
  return (
    <section aria-labelledby="new-label-title">
      <h2 id="new-label-title">New label</h2>
      <form class="row" aria-labelledby="new-label-title" onSubmit={submit}>
        <label>
          Name
          <input required maxLength={50} value={name} onInput={(event) => setName(fieldValue(event))} />
        </label>
        <label>
          Colour
          <input type="color" value={color} onInput={(event) => setColor(fieldValue(event))} />
        </label>
        <button type="submit" disabled={create.busy || !name.trim()}>
          Create label
        </button>
      </form>
      <Failure error={create.error} conflict="A label of that name exists already (names are compared in any case)." />
    </section>
  );
}

/** Delete, asked first: the question takes the button's place and the keyboard's focus. */
function DeleteLabel({ label, onDeleted }: { label: Label; onDeleted: () => void }) {
  const remove = useAction();
  return (
    <>
      <AskFirst
        button="Delete"
        label={`Delete label ${label.name}`}
        question={`Delete the label ${label.name}?`}
        yes="Yes, delete it"
        busy={remove.busy}
        onYes={async () => {
          const done = await remove.run((kaizen) =>
            kaizen.DELETE("/api/labels/{id}", { params: { path: { id: label.id } } }),
          );
          if (done) onDeleted();
        }}
      />
      <Failure error={remove.error} conflict="Issues still carry this label: take it off them first." />
    </>
  );
}

export function LabelsPage() {
  const labels = useLabels();
  const mayDelete = allowed("DELETE", "/api/labels/{id}");
  return (
    <section>
      <h1>Labels</h1>
      <p class="muted">Labels group issues across projects; an issue's page sets them.</p>
      <Failure error={labels.error} onReload={labels.reload} />
      {!labels.data ? (
        <Loading what="the labels" />
      ) : labels.data.length === 0 ? (
        <p>No label yet.</p>
      ) : (
        <table>
          <TableHead columns={["Label", "Colour", "Created", ...(mayDelete ? ["Delete"] : [])]} unseen={["Delete"]} />
          <tbody>
            {labels.data.map((label) => (
              <tr key={label.id}>
                <td>
                  <a href={`/app/issues?label=${encodeURIComponent(label.name)}`}>{label.name}</a>
                </td>
                <td>
                  <Swatch color={label.color} /> <code>{label.color}</code>
                </td>
                <td>
                  <When at={label.createdAt} />
                </td>
                {mayDelete ? (
                  <td>
                    <DeleteLabel label={label} onDeleted={labels.reload} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {allowed("POST", "/api/labels") ? <CreateLabel onCreated={labels.reload} /> : null}
    </section>
  );
}

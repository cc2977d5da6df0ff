/** The form fields and the pager the pages share. */

/** A labelled choice among `values`, with "any" (the empty value) first. */
export function Choice({
  label,
  value,
  values,
  onChange,
}: {
  label: string;
  value: string;
  values: readonly string[];
  onChange: (event: Event) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={onChange}>
        <option value="">any</option>
        {values.map((choice) => (
          <option value={choice}>{choice}</option>
        ))}
      </select>
    </label>
  );
}

/** Previous and next page buttons, with where the reader is. */
export function Pager({
  label,
  pageNumber,
  totalPages,
  onPage,
  names: [previous, next],
}: {
  label: string;
  pageNumber: number;
  totalPages: number;
  onPage: (pageNumber: number) => void;
  names: [string, string];
}) {
  if (totalPages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={pageNumber === 0} onClick={() => onPage(pageNumber - 1)}>
        {previous}
      </button>
      <span>
        page {pageNumber + 1} of {totalPages}
      </span>
      <button type="button" disabled={pageNumber + 1 >= totalPages} onClick={() => onPage(pageNumber + 1)}>
        {next}
      </button>
    </nav>
  );
}

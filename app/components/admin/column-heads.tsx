/** A dashboard table's head: one row of column headings (the Staff, Outbox and Failed jobs lists). */
export function ColumnHeads({ names }: { names: readonly string[] }) {
  return (
    <thead className="border-b border-line bg-soft text-sm">
      <tr>
        {names.map((name) => (
          <th key={name} scope="col" className="px-4 py-2">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

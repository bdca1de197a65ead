/**
 * A dashboard table's head: one row of column headings (the Staff, Outbox
 * and Failed jobs lists; with their own classes, the subscribers' tables,
 * the refused rows of an import and the account's sessions).
 */
export function ColumnHeads({
  names,
  className = "border-b border-line bg-soft text-sm",
  cellClassName = "px-4 py-2",
}: {
  names: readonly string[];
  className?: string;
  cellClassName?: string;
}) {
  return (
    <thead className={className}>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col" className={cellClassName}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A read kept in memory until the next content change (a write here, or in
 * another process through content-sync's LISTEN/NOTIFY: the same rule that
 * clears the public page cache). For small lists that many pages show and
 * that cost more to read and sort than to render (the team grid).
 */
import { onContentChange } from "./content-events";
import { db } from "./client";

export function memoUntilContentChange<T>(load: () => Promise<T>): () => Promise<T> {
  let generation = 0;
  onContentChange(() => {
    generation++;
  });
  // Per database, so tests that open a fresh one never see another's rows.
  const kept = new WeakMap<object, { generation: number; value: Promise<T> }>();
  return () => {
    const database = db();
    const hit = kept.get(database);
    if (hit && hit.generation === generation) return hit.value;
    // A write during the read bumps the generation: the next call reads again.
    const value = load();
    kept.set(database, { generation, value });
    value.catch(() => {
      if (kept.get(database)?.value === value) kept.delete(database);
    });
    return value;
  };
}

/**
 * Team ordering (SPEC §9): title rank managing partner, client services
 * partner, partner, associate, then everyone else; within a rank by the last
 * word of the full name, case-insensitively.
 */
const RANKS = ["managing partner", "client services partner", "partner", "associate"];

export function titleRank(title: string): number {
  const index = RANKS.indexOf(title.trim().toLowerCase());
  return index === -1 ? RANKS.length + 1 : index + 1;
}

export function lastName(fullName: string): string {
  const words = fullName.trim().split(/\s+/);
  return (words[words.length - 1] ?? "").toLowerCase();
}

export function compareTeamMembers(a: { title: string; full_name: string }, b: { title: string; full_name: string }) {
  return (
    titleRank(a.title) - titleRank(b.title) ||
    lastName(a.full_name).localeCompare(lastName(b.full_name)) ||
    a.full_name.toLowerCase().localeCompare(b.full_name.toLowerCase())
  );
}

export function sortTeam<T extends { title: string; full_name: string }>(members: readonly T[]): T[] {
  return [...members].sort(compareTeamMembers);
}

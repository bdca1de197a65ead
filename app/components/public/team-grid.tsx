import { Picture } from "./picture";
import { EMPTY_TEAM, StatusMessage } from "./status";

export type TeamCardData = { id: number; slug: string; full_name: string; title: string; img: string };

/**
 * Portrait cards (4:5) linking to each lawyer's page. A grid when there are
 * more than three people (SPEC §9), otherwise a centred row.
 */
export function TeamGrid({ members, headingLevel = 2, eagerCount = 0 }: { members: TeamCardData[]; headingLevel?: 2 | 3; eagerCount?: number }) {
  if (members.length === 0) return <StatusMessage>{EMPTY_TEAM}</StatusMessage>;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const layout =
    members.length > 3
      ? "grid grid-cols-2 gap-x-5 gap-y-10 sm:grid-cols-3 lg:grid-cols-4"
      : "flex flex-wrap justify-center gap-x-8 gap-y-10 [&>li]:w-[calc(50%-1rem)] sm:[&>li]:w-60";
  return (
    <ul className={layout} data-layout={members.length > 3 ? "grid" : "centred"}>
      {members.map((member, index) => (
        <li key={member.id}>
          <a href={`/lawyer/${encodeURIComponent(member.slug)}`} className="group block">
            <div className="overflow-hidden bg-soft">
              <Picture
                place="teamCard"
                img={member.img}
                alt={`Portrait of ${member.full_name}`}
                loading={index < eagerCount ? "eager" : "lazy"}
                decoding="async"
                className="aspect-[4/5] w-full object-cover transition-transform duration-500 group-hover:scale-[1.02]"
              />
            </div>
            <Heading className="mt-4 text-xl leading-snug font-semibold group-hover:text-accent group-hover:underline">{member.full_name}</Heading>
            <p className="mt-1 text-sm text-muted">{member.title}</p>
          </a>
        </li>
      ))}
    </ul>
  );
}

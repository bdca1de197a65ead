/**
 * A team member as the integration tests make one: a Partner in cyber, with
 * no photo, e-mailed at the first word of the name; `extra` changes any of it.
 */
import type { TeamMemberInput } from "~/.server/db/team";

export function memberInput(full_name: string, extra: Partial<TeamMemberInput> = {}): TeamMemberInput {
  return {
    full_name,
    title: "Partner",
    email: `${full_name.split(" ")[0].toLowerCase()}@example.com`,
    extension: 101,
    mobile: "",
    desc: "Bio",
    img: "",
    AOP: ["cyber"],
    area_details: [],
    staff: [],
    ...extra,
  };
}

/** A plain Associate (no practice area, a one-letter bio): for the Trash and the activity log, where only the name matters. */
export const associateInput = (full_name: string, email: string, extension: number): TeamMemberInput =>
  memberInput(full_name, { title: "Associate", email, extension, desc: "d", AOP: [] });

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

/** A Partner known only by name and picture (no practice area, no bio): for the picture sweep, where only the picture matters. */
export const memberWithPicture = (full_name: string, img: string): TeamMemberInput =>
  memberInput(full_name, { email: "m@example.com", extension: 1, desc: "", img, AOP: [] });

/**
 * The dashboard's team member form as a browser posts it: the text `fields` (a Partner with a one-word bio
 * and no mobile unless they say otherwise), the cyber practice, any `areaDetails`, and `photo` as the uploaded JPEG.
 */
export function memberFormData(fields: Record<string, string>, options: { areaDetails?: string[]; photo?: Buffer } = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ title: "Partner", mobile: "", desc: "Bio", ...fields })) fd.append(k, v);
  fd.append("AOP", "cyber");
  for (const detail of options.areaDetails ?? []) fd.append("area_details", detail);
  if (options.photo) fd.append("photo", new Blob([new Uint8Array(options.photo)], { type: "image/jpeg" }), "p.jpg");
  return fd;
}

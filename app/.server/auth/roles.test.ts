import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "~/lib/permissions";
import { can, canManageRole, isRole, ROLE_LABELS, ROLES } from "./roles";

describe("roles", () => {
  it("owners may do everything; admins everything but the outbox and security settings; editors content only", () => {
    expect(ROLES).toEqual(["owner", "admin", "editor", "events"]);
    for (const p of ["content", "staff", "activity", "enquiries", "outbox", "security"] as const) expect(can("owner", p)).toBe(true);
    expect(["content", "staff", "activity", "enquiries", "outbox", "security"].filter((p) => can("admin", p as never))).toEqual([
      "content",
      "staff",
      "activity",
      "enquiries",
    ]);
    expect(["content", "staff", "activity", "enquiries", "outbox", "security"].filter((p) => can("editor", p as never))).toEqual([
      "content",
    ]);
  });

  it("owners, admins and editors see the visit statistics; the events coordinator does not", () => {
    expect(ROLES.filter((r) => can(r, "statistics"))).toEqual(["owner", "admin", "editor"]);
  });

  it("subscribers: owners and admins manage them, editors see the counts only, only owners erase", () => {
    expect(ROLES.filter((r) => can(r, "subscribers"))).toEqual(["owner", "admin"]);
    expect(ROLES.filter((r) => can(r, "subscriber-counts"))).toEqual(["owner", "admin", "editor"]);
    expect(ROLES.filter((r) => can(r, "subscriber-erase"))).toEqual(["owner"]);
  });

  it("sending an article to subscribers: owners and admins, not editors (issue 42)", () => {
    expect(ROLES.filter((r) => can(r, "subscriber-mailing"))).toEqual(["owner", "admin"]);
  });

  it("only owners manage owner accounts; editors manage nobody", () => {
    expect(canManageRole("owner", "owner")).toBe(true);
    expect(canManageRole("admin", "owner")).toBe(false);
    expect(canManageRole("admin", "admin")).toBe(true);
    expect(canManageRole("admin", "editor")).toBe(true);
    expect(canManageRole("editor", "editor")).toBe(false);
  });

  it("the events coordinator: events and their registrants, nothing else; editors manage events but see no registrant", () => {
    expect(PERMISSIONS.filter((p) => can("events", p))).toEqual(["events", "event-registrations"]);
    expect(ROLES.filter((r) => can(r, "event-registrations"))).toEqual(["owner", "admin", "events"]);
    expect(ROLES.filter((r) => can(r, "events"))).toEqual(["owner", "admin", "editor", "events"]);
    expect(ROLE_LABELS.events).toBe("Events coordinator");
    expect(canManageRole("admin", "events")).toBe(true);
    expect(canManageRole("events", "events")).toBe(false);
  });

  it("recognises only the four roles", () => {
    expect(isRole("events")).toBe(true);
    expect(isRole("owner")).toBe(true);
    expect(isRole("superuser")).toBe(false);
    expect(isRole(undefined)).toBe(false);
  });
});

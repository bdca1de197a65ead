/** Site-wide settings kept by owners (one row per key in `site_settings`), each change in the audit trail. */
import { eq } from "drizzle-orm";
import { recordAudit, type Actor } from "./audit";
import { db } from "./client";
import { siteSettings } from "./schema";

const REQUIRE_TWO_FACTOR = "require_two_factor";

/** Whether an owner requires two-factor sign-in for every staff account. */
export async function twoFactorRequired(): Promise<boolean> {
  const [row] = await db().select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, REQUIRE_TWO_FACTOR));
  return row?.value === true;
}

export async function setTwoFactorRequired(value: boolean, actor: Actor): Promise<void> {
  await db().transaction(async (tx) => {
    const [before] = await tx
      .select({ value: siteSettings.value })
      .from(siteSettings)
      .where(eq(siteSettings.key, REQUIRE_TWO_FACTOR))
      .for("update");
    const was = before?.value === true;
    await tx
      .insert(siteSettings)
      .values({ key: REQUIRE_TWO_FACTOR, value })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updated_at: new Date() } });
    if (was !== value) {
      await recordAudit(tx, actor, {
        action: "settings",
        itemType: "settings",
        itemId: REQUIRE_TWO_FACTOR,
        itemLabel: "Two-factor sign-in required for every account",
        changes: { require_two_factor: { before: was, after: value } },
      });
    }
  });
}

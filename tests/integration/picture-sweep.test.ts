/**
 * Pictures left without a row (a crash between storing the picture and
 * writing the row) are removed by the sweep; pictures a row uses, and their
 * widths, never are.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createArticle } from "~/.server/db/articles";
import { getEnv } from "~/.server/env";
import { createTeamMember } from "~/.server/db/team";
import { getImageVariant, saveImage } from "~/.server/pictures/images";
import { createPictureSweeper, findOrphanPictures } from "~/.server/pictures/picture-sweep";
import { getStorage } from "~/.server/storage/storage";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";
import { memberWithPicture } from "../support/team";

setUpTestDatabase();

let jpeg: Buffer;
beforeAll(async () => {
  jpeg = await sharp({ create: { width: 90, height: 120, channels: 3, background: "#567" } })
    .jpeg()
    .toBuffer();
});

const all = async () => [...(await getStorage().list("team")), ...(await getStorage().list("articles"))].sort();

describe("picture sweep", () => {
  it("removes only pictures no row uses: after two passes, or at once when asked", async () => {
    const used = await saveImage("team", jpeg);
    await createTeamMember(memberWithPicture("Kept Member", used), TEST_ACTOR);
    // A name whose last uuid group is all digits must not be mistaken for a width of another.
    const digits = "0b1c2d3e-4f50-4a6b-8c7d-123456789012.jpg";
    await getStorage().put(`team/${digits}`, jpeg);
    await createTeamMember(memberWithPicture("Digits Member", digits), TEST_ACTOR);
    const article = await saveImage("articles", jpeg);
    await createArticle(
      { title: "Kept", img: article, category: "cyber", news: false, priority: false, copy: "<p>x</p>", date: "Monday, January 5, 2026" },
      TEST_ACTOR,
    );
    // AVIF widths made on request belong to their picture like the WebP ones.
    expect(await getImageVariant(`team/${used.replace(/\.jpg$/, "")}-320.avif`)).toBeDefined();
    const kept = await all();
    expect(kept.some((k) => k.endsWith("-320.avif"))).toBe(true);

    const orphanTeam = await saveImage("team", jpeg);
    const orphanArticle = await saveImage("articles", jpeg);
    expect(await getImageVariant(`articles/${orphanArticle.replace(/\.jpg$/, "")}-960.avif`)).toBeDefined();
    const orphans = (await all()).filter((k) => !kept.includes(k));
    expect(orphans.length).toBeGreaterThanOrEqual(4);
    expect(orphans.every((k) => k.includes(orphanTeam.replace(/\.jpg$/, "")) || k.includes(orphanArticle.replace(/\.jpg$/, "")))).toBe(
      true,
    );
    expect((await findOrphanPictures()).sort()).toEqual(orphans);

    const sweeper = createPictureSweeper();
    expect(await sweeper.sweep()).toEqual({ removed: [], waiting: orphans.length, temporaryRemoved: 0 });
    expect(await all()).toEqual([...kept, ...orphans].sort());
    const second = await sweeper.sweep();
    expect(second.removed.sort()).toEqual(orphans);
    expect(await all()).toEqual(kept);

    const again = await saveImage("team", jpeg);
    const now = await createPictureSweeper().sweep(true);
    expect(now.removed.length).toBeGreaterThan(0);
    expect(now.removed.every((k) => k.includes(again.replace(/\.jpg$/, "")))).toBe(true);
    expect(await all()).toEqual(kept);
  });

  it("removes half-written files a crash left: all at start-up, only old ones while other processes may be writing", async () => {
    const root = path.join(getEnv().dataDir, "uploads");
    const fresh = path.join(root, "team", `0f0f0f0f-0000-4000-8000-000000000001.jpg.${process.pid}.tmp`);
    const old = path.join(root, "articles", `0f0f0f0f-0000-4000-8000-000000000002-800.webp.4242.tmp`);
    fs.mkdirSync(path.dirname(fresh), { recursive: true });
    fs.mkdirSync(path.dirname(old), { recursive: true });
    fs.writeFileSync(fresh, "half");
    fs.writeFileSync(old, "half");
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    fs.utimesSync(old, hourAgo, hourAgo);
    const before = await all();

    const periodic = await createPictureSweeper().sweep();
    expect(periodic.temporaryRemoved).toBe(1);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);

    const atStart = await createPictureSweeper().sweep(true);
    expect(atStart.temporaryRemoved).toBe(1);
    expect(fs.existsSync(fresh)).toBe(false);
    expect(await all()).toEqual(before);
  });
});

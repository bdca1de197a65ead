/**
 * The contact card (/lawyer/:slug/vcard) read back by an independent vCard
 * parser, Python's vobject (Debian python3-vobject; .ci/run installs it):
 * vCard 3.0, every field the address books show, the embedded portrait's
 * bytes (a small square JPEG of at most 30 KB made from the stored picture)
 * and the line lengths (CRLF, at most 75 octets).
 */
import { testContext } from "../support/route-call";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createTeamMember } from "~/.server/db/team";
import { saveImage } from "~/.server/pictures/images";
import { getStorage } from "~/.server/storage/storage";
import { VCARD_PHOTO_MAX_BYTES, vcardPhotoKey } from "~/.server/pictures/vcard-photo";
import { loader } from "~/routes/public/vcard";
import { TEST_ACTOR, setUpTestDatabase } from "../support/database";

setUpTestDatabase();

const PYTHON = "/usr/bin/python3";
const hasVobject = fs.existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import vobject"]).status === 0;
if (!hasVobject && process.env.CI) throw new Error("CI needs Python's vobject for the vCard test: apt-get install -y python3-vobject");

type Parsed = {
  cards: number;
  version: string;
  fn: string;
  n: { family: string; given: string; additional: string };
  org: string[];
  title: string | null;
  email: { value: string; params: Record<string, string[]> }[];
  tel: { value: string; params: Record<string, string[]> }[];
  adr: { street: string; city: string; region: string; code: string; country: string; params: Record<string, string[]> }[];
  url: string | null;
  photo: { params: Record<string, string[]>; base64: string }[];
};

function readWithVobject(card: string): Parsed {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vcard-")), "card.vcf");
  fs.writeFileSync(file, card, "utf8");
  const run = spawnSync(PYTHON, [path.resolve("tests/support/vcard-reader.py"), file], { encoding: "utf8" });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`vobject could not read the card:\n${run.stderr}`);
  return JSON.parse(run.stdout) as Parsed;
}

async function card(slug: string): Promise<{ response: Response; text: string }> {
  const response = await loader({
    params: { slug },
    request: new Request(`http://localhost:3000/lawyer/${slug}/vcard`),
    context: testContext(),
  } as never);
  return { response, text: await response.clone().text() };
}

let img = "";
beforeAll(async () => {
  // A detailed portrait (noise does not compress), so the size limit is really tested.
  const noise = Buffer.alloc(600 * 750 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + (i >> 5) * 104729) % 251;
  const portrait = await sharp(noise, { raw: { width: 600, height: 750, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  img = await saveImage("team", new Uint8Array(portrait));
  const base = { desc: "", AOP: ["cyber"], area_details: [], staff: [] };
  await createTeamMember(
    {
      ...base,
      full_name: "Zoë O'Brien-Müller",
      title: "Partner, Cyber; Incident Response",
      email: "zoe@harrowkline.example",
      extension: 117,
      mobile: "416 555 0190",
      img,
    },
    TEST_ACTOR,
  );
  await createTeamMember(
    { ...base, full_name: "Patrick Lindqvist", title: "Associate", email: "pl@harrowkline.example", extension: 104, mobile: "", img: "" },
    TEST_ACTOR,
  );
});

describe.skipIf(!hasVobject)("vCard 3.0 read by vobject", () => {
  it("has every field as address books show it", async () => {
    const { response, text } = await card("Zoë-O'Brien-Müller");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/vcard; charset=utf-8");
    const parsed = readWithVobject(text);
    expect(parsed.cards).toBe(1);
    expect(parsed.version).toBe("3.0");
    expect(parsed.fn).toBe("Zoë O'Brien-Müller");
    expect(parsed.n).toEqual({ family: "O'Brien-Müller", given: "Zoë", additional: "" });
    expect(parsed.org).toEqual(["Harrow Kline LLP"]);
    expect(parsed.title).toBe("Partner, Cyber; Incident Response");
    expect(parsed.email).toEqual([{ value: "zoe@harrowkline.example", params: { TYPE: ["INTERNET", "WORK"] } }]);
    expect(parsed.tel).toEqual([
      { value: "+1 416-555-0142 ext. 117", params: { TYPE: ["WORK", "VOICE"] } },
      { value: "+1 416-555-0190", params: { TYPE: ["CELL"] } },
    ]);
    expect(parsed.adr).toEqual([
      {
        street: "100 Wellington Street West, Suite 2100",
        city: "Toronto",
        region: "ON",
        code: "M5K 1A1",
        country: "CA",
        params: { TYPE: ["WORK"] },
      },
    ]);
    expect(parsed.url).toBe(`http://localhost:3000/lawyer/${encodeURIComponent("Zoë-O'Brien-Müller")}`);
  });

  it("embeds the portrait: a square JPEG of at most 30 KB made from the stored picture, byte for byte", async () => {
    const { text } = await card("Zoë-O'Brien-Müller");
    const [photo] = readWithVobject(text).photo;
    expect(photo.params).toEqual({ ENCODING: ["b"], TYPE: ["JPEG"] });
    const bytes = Buffer.from(photo.base64, "base64");
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(bytes.length).toBeLessThanOrEqual(VCARD_PHOTO_MAX_BYTES);
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.width).toBe(meta.height);
    expect(meta.width).toBeGreaterThanOrEqual(120);
    // Made once and kept: the stored copy is what the card carries.
    const stored = await getStorage().get(vcardPhotoKey(img.replace(/\.\w+$/, "")));
    expect(stored && Buffer.compare(stored, bytes)).toBe(0);
  });

  it("has CRLF line ends and no line longer than 75 octets, folded as RFC 2426 says", async () => {
    const { text } = await card("Zoë-O'Brien-Müller");
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = text.slice(0, -2).split("\r\n");
    expect(lines.length).toBeGreaterThan(40); // the photo is folded over many lines
    for (const line of lines) expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
    expect(lines.filter((l) => l.startsWith(" ")).length).toBeGreaterThan(30);
  });

  it("a lawyer without a picture or mobile: no PHOTO and no CELL line, still readable", async () => {
    const { text } = await card("Patrick-Lindqvist");
    const parsed = readWithVobject(text);
    expect(parsed.photo).toEqual([]);
    expect(parsed.tel).toEqual([{ value: "+1 416-555-0142 ext. 104", params: { TYPE: ["WORK", "VOICE"] } }]);
    expect(parsed.fn).toBe("Patrick Lindqvist");
  });
});

describe("vCard route", () => {
  it("answers 404 with the spec's text for an unknown lawyer", async () => {
    const { response, text } = await card("Nobody-Here");
    expect(response.status).toBe(404);
    expect(text).toBe("Error. Could not retrieve lawyer.");
  });
});

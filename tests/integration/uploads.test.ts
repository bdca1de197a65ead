/**
 * Hostile uploads against the picture pipeline (app/.server/pictures/images.ts) and
 * the storage (app/.server/storage/storage.ts): a decompression bomb is refused
 * before it is decoded (memory stays flat); SVG, HTML renamed .jpg, GIF and
 * empty files are refused with a message for the form; polyglots are
 * re-encoded so no payload survives; stored keys are always
 * `{team|articles}/{uuid}.{ext}` and no key can leave the uploads folder.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deleteImage,
  getImageVariant,
  ImageRejected,
  pictureWork,
  inspectImage,
  MAX_AVIF_PIXELS,
  MAX_PIXELS,
  MAX_UPLOAD_BYTES,
  saveImage,
} from "~/.server/pictures/images";
import { diskStorage, getStorage, IMAGE_FOLDERS, isValidKey } from "~/.server/storage/storage";
import { imageKeys, uploadKeys } from "~/lib/images";

// Only the storage and sharp are involved: no database needed.
let root: string;
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "firm-uploads-"));
  const { setStorage } = await import("~/.server/storage/storage");
  setStorage(diskStorage(path.join(root, "uploads")));
});
afterAll(async () => {
  const { setStorage } = await import("~/.server/storage/storage");
  setStorage(undefined);
  fs.rmSync(root, { recursive: true, force: true });
});

async function storedKeys(): Promise<string[]> {
  const out: string[] = [];
  for (const folder of IMAGE_FOLDERS) out.push(...(await getStorage().list(folder)));
  return out.sort();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** `count` zero bytes deflated as a stream (never held in memory at once). */
async function deflateZeros(count: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9, memLevel: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (d: Buffer) => parts.push(d));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const zeros = Buffer.alloc(4 * 1024 * 1024);
  let left = count;
  while (left > 0) {
    const n = Math.min(left, zeros.length);
    if (!deflate.write(n === zeros.length ? zeros : zeros.subarray(0, n))) await new Promise((r) => deflate.once("drain", r));
    left -= n;
  }
  deflate.end();
  await done;
  return Buffer.concat(parts);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A grey-scale PNG of width×height black pixels (each row a filter byte 0 and
 * `width` zero bytes, so the raw stream is all zeros): a decompression bomb.
 */
async function pngBomb(width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grey
  const idat = await deflateZeros((width + 1) * height);
  return Buffer.concat([PNG_SIGNATURE, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

/**
 * Pictures made by sharp in a child process, so that making them does not
 * warm this process's allocator and hide the memory their processing costs.
 */
function makeInChild(specs: { file: string; width: number; height: number; format: "jpeg" | "png" | "webp" | "avif" }[]): void {
  const script = `
    import sharp from "sharp";
    for (const s of ${JSON.stringify(specs)}) {
      // One colour: the decoder's memory depends on the dimensions, not the content.
      await sharp({ create: { width: s.width, height: s.height, channels: 3, background: "#555" } })
        [s.format](s.format === "avif" ? { effort: 0 } : {})
        .toFile(s.file);
    }`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd(), encoding: "utf8" });
  if (result.status !== 0) throw new Error(`making test pictures failed: ${result.stderr}`);
}

/** Peak resident memory growth (bytes) while `work` runs, sampled every 5 ms. */
async function peakRssGrowth(work: () => Promise<unknown>): Promise<number> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    await work();
  } catch {
    /* the caller checks the outcome separately */
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss) - base;
}

const smallJpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#8a3" } })
    .jpeg()
    .toBuffer();
const smallPng = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#38a" } })
    .png()
    .toBuffer();

const PAYLOADS = ["<script>", "alert(", "<html", "onload=", "PK\u0003\u0004", "META-INF"];

async function expectNoPayloadStored(name: string) {
  // Every file that can be served for it: stored with the upload, or made on request (AVIF widths).
  const keys = imageKeys("team", name);
  for (const key of keys) {
    const bytes = (await getStorage().get(key)) ?? (await getImageVariant(key));
    expect(bytes, key).toBeDefined();
    const text = bytes!.toString("latin1");
    for (const p of PAYLOADS) expect(text.includes(p), `${key} contains ${JSON.stringify(p)}`).toBe(false);
  }
}

// Four of the largest pictures made and processed: about 30 s on a busy CI machine at nice 10, more when its other files run beside it.
describe("memory: bombs and the largest accepted pictures", { timeout: 240_000 }, () => {
  // First in the file, while this process's memory is still fresh.
  it("the largest picture accepted in each format is processed with < 100 MB of memory (AVIF < 200 MB)", async () => {
    const side = Math.floor(Math.sqrt(MAX_PIXELS));
    const specs = [
      { file: path.join(root, "big.jpg"), width: side, height: side, format: "jpeg" as const },
      { file: path.join(root, "big.png"), width: side, height: side, format: "png" as const },
      { file: path.join(root, "big.webp"), width: side, height: side, format: "webp" as const },
      { file: path.join(root, "big.avif"), width: 2500, height: Math.floor(MAX_AVIF_PIXELS / 2500), format: "avif" as const },
    ];
    makeInChild(specs);
    const figures: string[] = [];
    const growths: [string, number][] = [];
    for (const spec of specs) {
      const bytes = fs.readFileSync(spec.file);
      let name: unknown;
      const started = Date.now();
      const growth = (await peakRssGrowth(async () => (name = await saveImage("articles", bytes)))) / 1024 / 1024;
      expect(name, spec.format).toMatch(/^[0-9a-f-]{36}\.(jpg|png|webp|avif)$/);
      figures.push(
        `${spec.format} ${spec.width}×${spec.height} (${(bytes.length / 1024).toFixed(0)} KB): ${Date.now() - started} ms, peak RSS +${growth.toFixed(0)} MB`,
      );
      growths.push([spec.format, growth]);
    }
    console.info(`largest accepted:\n  ${figures.join("\n  ")}`);
    // AVIF is decoded whole (libheif does not stream) and encoded to AVIF again; each upload is decoded once.
    for (const [format, growth] of growths) expect(growth, format).toBeLessThan(format === "avif" ? 200 : 100);
  });

  it("refuses a 20000×20000 PNG of a few hundred KB before decoding it, with a clear message and < 100 MB of memory", async () => {
    const bomb = await pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(bomb.length).toBeGreaterThan(100 * 1024);
    const before = await storedKeys();

    let inspectError: unknown;
    const inspectGrowth = await peakRssGrowth(() => inspectImage(bomb).catch((e: unknown) => (inspectError = e)));
    expect(inspectError).toBeInstanceOf(ImageRejected);
    expect((inspectError as Error).message).toBe(
      "The picture is 20000×20000 pixels; the largest allowed is 40 megapixels. Choose a smaller picture.",
    );

    let saveError: unknown;
    const started = Date.now();
    const saveGrowth = await peakRssGrowth(() => saveImage("team", bomb).catch((e: unknown) => (saveError = e)));
    const ms = Date.now() - started;
    expect(saveError).toBeInstanceOf(ImageRejected);
    expect((saveError as Error).message).toMatch(/40 megapixels/);
    expect(await storedKeys()).toEqual(before);

    const growthMb = Math.max(inspectGrowth, saveGrowth) / 1024 / 1024;
    console.info(`bomb: ${(bomb.length / 1024).toFixed(0)} KB file, refused in ${ms} ms, peak RSS growth ${growthMb.toFixed(1)} MB`);
    expect(growthMb).toBeLessThan(100);
  });

  it("refuses an AVIF of 40 megapixels in 1 KB (AVIF is decoded whole) before decoding it", async () => {
    // Made once with sharp: 6300×6300 of one colour, AVIF at effort 0 (887 bytes).
    const bomb = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/avif-bomb-6300x6300.avif"));
    expect(bomb.length).toBeLessThan(64 * 1024);
    let error: unknown;
    const growth = (await peakRssGrowth(() => saveImage("team", bomb).catch((e: unknown) => (error = e)))) / 1024 / 1024;
    expect(error).toBeInstanceOf(ImageRejected);
    expect((error as Error).message).toBe(
      "The AVIF picture is 6300×6300 pixels; AVIF pictures can be at most 5 megapixels. Export it smaller, or as JPEG.",
    );
    console.info(`AVIF bomb: ${bomb.length} bytes, peak RSS growth ${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(100);
  });

  it("a small PNG carrying 400 MB of compressed text (zTXt) is stored without it, with < 100 MB of memory", async () => {
    const png = await smallPng();
    const iend = png.length - 12;
    const text = chunk("zTXt", Buffer.concat([Buffer.from("Comment\u0000\u0000", "latin1"), await deflateZeros(400 * 1024 * 1024)]));
    const bytes = Buffer.concat([png.subarray(0, iend), text, png.subarray(iend)]);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    let name = "";
    const growth = (await peakRssGrowth(async () => (name = await saveImage("team", bytes)))) / 1024 / 1024;
    console.info(`zTXt bomb: ${(bytes.length / 1024).toFixed(0)} KB file, peak RSS growth ${growth.toFixed(1)} MB`);
    expect(name).toMatch(/\.png$/);
    expect((await getStorage().get(`team/${name}`))!.length).toBeLessThan(10 * 1024);
    expect(growth).toBeLessThan(100);
  });
});

describe("files that are not an allowed picture are refused with a message for the form", () => {
  const ONLY = /JPEG, PNG, WebP or AVIF/;
  it.each([
    [
      "an SVG (scripts inside)",
      () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10"/></svg>',
        ),
      ONLY,
    ],
    [
      "an SVG with an XML prolog",
      () =>
        Buffer.from(
          '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
      ONLY,
    ],
    [
      "an HTML file renamed .jpg",
      () => Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"),
      ONLY,
    ],
    [
      "HTML behind a fake JPEG start (FF D8 FF)",
      () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("<html><script>alert(1)</script></html>")]),
      ONLY,
    ],
    [
      "a GIF",
      () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: "#f00" } })
          .gif()
          .toBuffer(),
      ONLY,
    ],
    ["a zero-byte file", () => Buffer.alloc(0), /empty/],
    ["a file over 10 MB", () => Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0xff), /larger than 10 MB/],
    ["a truncated JPEG", async () => (await smallJpeg()).subarray(0, 200), /could not be read|not a picture/],
  ] as const)("%s", async (_label, make, message) => {
    const bytes = await make();
    const before = await storedKeys();
    const error = await saveImage("team", bytes).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, "the file was accepted").toBeInstanceOf(ImageRejected);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(/sharp|vips|Error:|at \//); // no library internals for the form
    expect(await storedKeys()).toEqual(before);
  });
});

describe("polyglots are re-encoded: the stored bytes carry no payload", () => {
  it("a valid JPEG with HTML/JS appended after its end", async () => {
    const bytes = Buffer.concat([await smallJpeg(), Buffer.from("<html><script>alert(document.cookie)</script></html>")]);
    expect((await inspectImage(bytes)).ext).toBe("jpg");
    const name = await saveImage("team", bytes);
    await expectNoPayloadStored(name);
  });

  it("a GIFAR-like JPEG with a ZIP (Java archive) appended", async () => {
    const zipHeader = Buffer.concat([Buffer.from("PK\u0003\u0004", "latin1"), Buffer.alloc(26), Buffer.from("META-INF/MANIFEST.MF")]);
    const name = await saveImage("team", Buffer.concat([await smallJpeg(), zipHeader, Buffer.from("Main-Class: Evil\n")]));
    await expectNoPayloadStored(name);
  });

  it("a JPEG whose comment segment holds a script", async () => {
    const jpeg = await smallJpeg();
    const payload = Buffer.from("<html><script>alert(1)</script>");
    const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0, payload.length + 2]), payload]);
    const name = await saveImage("team", Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]));
    await expectNoPayloadStored(name);
  });

  it("a PNG whose text chunk holds a script", async () => {
    const png = await smallPng();
    const iend = png.length - 12;
    const text = chunk("tEXt", Buffer.from("Comment\u0000<html><script>alert(1)</script>", "latin1"));
    const name = await saveImage("team", Buffer.concat([png.subarray(0, iend), text, png.subarray(iend)]));
    expect(name).toMatch(/\.png$/);
    await expectNoPayloadStored(name);
  });
});

describe("storage keys", () => {
  it("saved pictures are always {team|articles}/{uuid}.{ext} plus their WebP widths", async () => {
    const name = await saveImage("articles", await smallJpeg());
    expect(name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jpg$/);
    for (const key of uploadKeys("articles", name)) {
      expect(isValidKey(key)).toBe(true);
      expect(await getStorage().get(key)).toBeDefined();
    }
    for (const key of await storedKeys()) expect(key).toMatch(/^(team|articles)\/[0-9a-f-]{36}(-\d+)?\.(jpg|png|webp|avif)$/);
  });

  const HOSTILE = [
    "../package.json",
    "team/../../package.json",
    "team/../articles/x.jpg",
    "team/..%2f..%2fpackage.json",
    "team/%2e%2e/x.jpg",
    "/etc/passwd",
    "team//etc/passwd.jpg",
    "team\\..\\..\\x.jpg",
    "team/x.jpg\u0000.html",
    "team/x.jpg\n",
    "team/x.html",
    "team/x.svg",
    "team/x.gif",
    "team/x.jpg.html",
    "team/X.JPG",
    "team/.jpg",
    "team/.htaccess",
    "team/x",
    "other/x.jpg",
    "team/sub/x.jpg",
    "",
    `team/${"a".repeat(81)}.jpg`,
  ];

  it.each(HOSTILE)("isValidKey refuses %j", (key) => {
    expect(isValidKey(key)).toBe(false);
  });

  it("diskStorage refuses keys that leave its folder: put and delete throw, get finds nothing", async () => {
    const base = path.join(root, "jail");
    const storage = diskStorage(path.join(base, "uploads"));
    fs.mkdirSync(path.join(base, "uploads", "team"), { recursive: true });
    fs.writeFileSync(path.join(base, "secret.jpg"), "secret");
    fs.writeFileSync(path.join(base, "uploads", "secret.jpg"), "secret");
    for (const key of ["../secret.jpg", "team/../../secret.jpg", "team/../secret.jpg", "../../x.jpg", "/tmp/x.jpg", "team/x.html"]) {
      await expect(storage.put(key, Buffer.from("x")), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/Invalid storage key/);
      expect(await storage.get(key), key).toBeUndefined();
    }
    expect(fs.readFileSync(path.join(base, "secret.jpg"), "utf8")).toBe("secret");
    expect(fs.readFileSync(path.join(base, "uploads", "secret.jpg"), "utf8")).toBe("secret");
    expect(fs.existsSync(path.join(root, "x.jpg"))).toBe(false);
    expect(fs.existsSync("/tmp/x.jpg")).toBe(false);
    // A valid key works, and only inside the folder.
    await storage.put("team/abc-123.jpg", Buffer.from("ok"));
    expect(fs.readFileSync(path.join(base, "uploads", "team", "abc-123.jpg"), "utf8")).toBe("ok");
    expect(await storage.list("team")).toEqual(["team/abc-123.jpg"]);
  });
});

describe("AVIF widths, made from the original on first request", () => {
  it("are made once, kept, served as real AVIF of the width asked, and removed with the picture", async () => {
    const name = await saveImage(
      "team",
      await sharp({ create: { width: 800, height: 1000, channels: 3, background: "#2a4" } })
        .jpeg()
        .toBuffer(),
    );
    const stem = name.replace(/\.jpg$/, "");
    const key = `team/${stem}-320.avif`;
    expect(await getStorage().get(key)).toBeUndefined();
    // Two first requests at once share one encode.
    const [first, second] = await Promise.all([getImageVariant(key), getImageVariant(key)]);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    const meta = await sharp(first).metadata();
    expect(meta.format).toBe("heif");
    expect(meta.compression).toBe("av1");
    expect(meta.width).toBe(320);
    expect(await getStorage().get(key)).toEqual(first);
    // Kept: a later request reads the stored bytes.
    expect(await getImageVariant(key)).toEqual(first);
    // A WebP width that went missing is made again the same way.
    await getStorage().delete(`team/${stem}-640.webp`);
    expect((await sharp(await getImageVariant(`team/${stem}-640.webp`)).metadata()).format).toBe("webp");

    await deleteImage("team", name);
    for (const k of imageKeys("team", name)) expect(await getStorage().get(k), k).toBeUndefined();
  });

  it.each([
    ["a width that kind does not have", (stem: string) => `team/${stem}-480.avif`],
    ["an article width asked of a portrait folder", (stem: string) => `team/${stem}-960.webp`],
    ["another format", (stem: string) => `team/${stem}-320.png`],
    ["no original", () => "team/00000000-0000-4000-8000-000000000000-320.avif"],
    ["a path", (stem: string) => `team/../${stem}-320.avif`],
  ])("are not made for %s", async (_label, keyOf) => {
    const name = await saveImage("team", await smallJpeg());
    const before = await storedKeys();
    expect(await getImageVariant(keyOf(name.replace(/\.jpg$/, "")))).toBeUndefined();
    expect(await storedKeys()).toEqual(before);
  });
});

describe("picture work is queued", () => {
  it("several uploads and a width made on request at once are processed one at a time, uploads in order of arrival, and all succeed", async () => {
    const photo = await sharp({ create: { width: 2400, height: 1800, channels: 3, background: "#468" } })
      .jpeg()
      .toBuffer();
    const first = await saveImage("articles", photo);
    let most = 0;
    let queued = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, pictureWork.active);
      queued = Math.max(queued, pictureWork.waiting);
    }, 1);
    const finished: string[] = [];
    try {
      const work = [
        saveImage("articles", photo).then((n) => (finished.push("upload 1"), n)),
        saveImage("team", photo).then((n) => (finished.push("upload 2"), n)),
        getImageVariant(`articles/${first.replace(/\.jpg$/, "")}-960.avif`).then((b) => (finished.push("avif"), b)),
        saveImage("articles", photo).then((n) => (finished.push("upload 3"), n)),
      ];
      const [a, b, avif, c] = await Promise.all(work);
      expect(new Set([a, b, c]).size).toBe(3);
      expect(avif).toBeDefined();
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBe(1);
    expect(queued).toBeGreaterThanOrEqual(2);
    // First come, first served (the width joins the queue once it has read its original from storage).
    expect(finished.filter((f) => f.startsWith("upload"))).toEqual(["upload 1", "upload 2", "upload 3"]);
    expect(pictureWork.active).toBe(0);
  });
});

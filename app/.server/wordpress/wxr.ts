/**
 * Reads a WordPress export (WXR 1.1 and 1.2: RSS 2.0 with the `wp:`,
 * `content:`, `excerpt:` and `dc:` namespaces) as a stream with saxes: the
 * file is read in chunks and each <item> is handed over as soon as it
 * closes, so memory holds one chunk and one item, never the file (each
 * value a copy of its own: `ownCopy`).
 *
 * Elements are recognised by namespace URI and local name, not by prefix;
 * the export namespaces of 1.0, 1.1 and 1.2 are all accepted. Comments on
 * posts (`wp:comment`) are skipped.
 */
import { createReadStream } from "node:fs";
import { SaxesParser, type SaxesTagNS } from "saxes";

export type WxrChannel = { title: string; link: string; baseSiteUrl: string; baseBlogUrl: string; version: string };
export type WxrAuthor = { login: string; email: string; displayName: string; firstName: string; lastName: string };
export type WxrTerm = { kind: "category" | "tag"; slug: string; name: string; parent: string };
export type WxrItemTerm = { domain: string; slug: string; name: string };
export type WxrItem = {
  id: number;
  type: string;
  status: string;
  title: string;
  link: string;
  guid: string;
  slug: string;
  /** Local time as WordPress wrote it ("2021-03-04 09:30:00"). */
  date: string;
  /** UTC ("0000-00-00 00:00:00" for a draft never scheduled). */
  dateGmt: string;
  creator: string;
  content: string;
  excerpt: string;
  parent: number;
  attachmentUrl: string;
  password: string;
  terms: WxrItemTerm[];
  meta: Record<string, string>;
};

export type WxrHandlers = {
  channel?(channel: WxrChannel): void;
  author?(author: WxrAuthor): void;
  term?(term: WxrTerm): void;
  item(item: WxrItem): void | Promise<void>;
};

export class WxrError extends Error {}

/**
 * `text` copied into a string of its own. A substring in V8 can be a view that keeps the whole
 * string it was cut from alive: a title kept in the importer's index would hold the export's
 * 256 KB chunk it was read from, and a problem's message a whole body, so the index of a 168 MB
 * export held every chunk of it (docs/performance.md).
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

const SHORT: [RegExp, string][] = [
  [/^https?:\/\/wordpress\.org\/export\/[\d.]+\/excerpt\/?$/, "excerpt"],
  [/^https?:\/\/wordpress\.org\/export\/[\d.]+\/?$/, "wp"],
  [/^http:\/\/purl\.org\/rss\/1\.0\/modules\/content\/?$/, "content"],
  [/^http:\/\/purl\.org\/dc\/elements\/1\.1\/?$/, "dc"],
];

function keyOf(tag: SaxesTagNS): string {
  if (!tag.uri) return tag.local;
  for (const [pattern, short] of SHORT) if (pattern.test(tag.uri)) return `${short}:${tag.local}`;
  return `?:${tag.local}`;
}

function emptyItem(): WxrItem {
  return {
    id: 0,
    type: "",
    status: "",
    title: "",
    link: "",
    guid: "",
    slug: "",
    date: "",
    dateGmt: "",
    creator: "",
    content: "",
    excerpt: "",
    parent: 0,
    attachmentUrl: "",
    password: "",
    terms: [],
    meta: {},
  };
}

const ITEM_FIELDS: Record<string, keyof WxrItem> = {
  title: "title",
  link: "link",
  guid: "guid",
  "dc:creator": "creator",
  "content:encoded": "content",
  "excerpt:encoded": "excerpt",
  "wp:post_name": "slug",
  "wp:post_date": "date",
  "wp:post_date_gmt": "dateGmt",
  "wp:status": "status",
  "wp:post_type": "type",
  "wp:attachment_url": "attachmentUrl",
  "wp:post_password": "password",
};

/** Where an export is read from: a file's path (the CLI), or a function opening it afresh as a stream of bytes (the site's storage). */
export type WxrSource = string | (() => Promise<AsyncIterable<Uint8Array>>);

/**
 * Streams the export at `file` (a path, or a stream opened by the function) through the handlers. `item` may be async:
 * reading waits for it (a slow import holds one chunk, not the file).
 */
export async function readWxr(file: WxrSource, handlers: WxrHandlers, options: { signal?: AbortSignal } = {}): Promise<void> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: string[] = [];
  let text = "";
  let item: WxrItem | null = null;
  let author: Partial<WxrAuthor> | null = null;
  let term: Partial<WxrTerm> | null = null;
  let meta: { key: string; value: string } | null = null;
  let itemTerm: WxrItemTerm | null = null;
  const channel: WxrChannel = { title: "", link: "", baseSiteUrl: "", baseBlogUrl: "", version: "" };
  let channelSent = false;
  let sawRss = false;
  const ready: WxrItem[] = [];
  let failure: Error | undefined;

  const sendChannel = () => {
    if (!channelSent) {
      channelSent = true;
      handlers.channel?.(channel);
    }
  };

  parser.on("opentag", (tag) => {
    const key = keyOf(tag);
    const depth = stack.length;
    stack.push(key);
    text = "";
    if (depth === 0) {
      if (key !== "rss") failure ??= new WxrError("This file is not a WordPress export: it is not an RSS document.");
      sawRss = true;
    }
    const parent = stack[depth - 1];
    if (key === "item" && parent === "channel") {
      sendChannel();
      item = emptyItem();
    } else if (key === "wp:author" && parent === "channel") author = {};
    else if ((key === "wp:category" || key === "wp:tag") && parent === "channel")
      term = { kind: key === "wp:category" ? "category" : "tag", parent: "" };
    else if (item && key === "wp:postmeta" && parent === "item") meta = { key: "", value: "" };
    else if (item && key === "category" && parent === "item") {
      const attr = (name: string) => {
        const a = tag.attributes[name];
        return ownCopy(typeof a === "string" ? a : (a?.value ?? ""));
      };
      itemTerm = { domain: attr("domain"), slug: attr("nicename"), name: "" };
    }
  });
  parser.on("text", (t) => (text += t));
  parser.on("cdata", (t) => (text += t));
  parser.on("closetag", () => {
    const key = stack.pop() ?? "";
    const parent = stack[stack.length - 1];
    // Every value handed on is a string of its own, never a view of the chunk (ownCopy).
    const value = ownCopy(text);
    text = "";
    if (item) {
      if (key === "item") {
        ready.push(item);
        item = null;
      } else if (parent === "item") {
        const field = ITEM_FIELDS[key];
        if (field) (item[field] as string) = field === "content" || field === "excerpt" ? value : value.trim();
        else if (key === "wp:post_id") item.id = Number(value.trim()) || 0;
        else if (key === "wp:post_parent") item.parent = Number(value.trim()) || 0;
        else if (key === "category" && itemTerm) {
          itemTerm.name = value.trim();
          item.terms.push(itemTerm);
          itemTerm = null;
        } else if (key === "wp:postmeta" && meta) {
          if (meta.key) item.meta[meta.key] = meta.value;
          meta = null;
        }
      } else if (parent === "wp:postmeta" && meta) {
        if (key === "wp:meta_key") meta.key = value.trim();
        else if (key === "wp:meta_value") meta.value = value;
      }
      return;
    }
    if (author) {
      if (key === "wp:author") {
        handlers.author?.({
          login: author.login ?? "",
          email: author.email ?? "",
          displayName: author.displayName ?? "",
          firstName: author.firstName ?? "",
          lastName: author.lastName ?? "",
        });
        author = null;
      } else if (key === "wp:author_login") author.login = value.trim();
      else if (key === "wp:author_email") author.email = value.trim();
      else if (key === "wp:author_display_name") author.displayName = value.trim();
      else if (key === "wp:author_first_name") author.firstName = value.trim();
      else if (key === "wp:author_last_name") author.lastName = value.trim();
      return;
    }
    if (term) {
      if (key === "wp:category" || key === "wp:tag") {
        if (term.slug) handlers.term?.({ kind: term.kind!, slug: term.slug, name: term.name ?? term.slug, parent: term.parent ?? "" });
        term = null;
      } else if (key === "wp:category_nicename" || key === "wp:tag_slug") term.slug = value.trim();
      else if (key === "wp:cat_name" || key === "wp:tag_name") term.name = value.trim();
      else if (key === "wp:category_parent") term.parent = value.trim();
      return;
    }
    if (parent === "channel") {
      if (key === "title") channel.title = value.trim();
      else if (key === "link") channel.link = value.trim();
      else if (key === "wp:base_site_url") channel.baseSiteUrl = value.trim();
      else if (key === "wp:base_blog_url") channel.baseBlogUrl = value.trim();
      else if (key === "wp:wxr_version") channel.version = value.trim();
    }
  });
  parser.on("error", (error) => {
    failure ??= new WxrError(`The export is not well-formed XML: ${error.message}`);
  });

  const stream: AsyncIterable<Uint8Array> = typeof file === "string" ? createReadStream(file, { highWaterMark: 256 * 1024 }) : await file();
  // A character cut between two chunks is held by the decoder until its next chunk.
  const decoder = new TextDecoder("utf-8");
  try {
    for await (const chunk of stream) {
      if (options.signal?.aborted) throw new WxrError("The import was stopped.");
      parser.write(decoder.decode(chunk, { stream: true }));
      if (failure) throw failure;
      while (ready.length) await handlers.item(ready.shift()!);
    }
    parser.write(decoder.decode());
    parser.close();
    if (failure) throw failure;
    while (ready.length) await handlers.item(ready.shift()!);
  } finally {
    // A file's stream is closed; a generator (a bucket read part by part) was ended by the loop.
    (stream as { destroy?: () => void }).destroy?.();
  }
  if (!sawRss) throw new WxrError("This file is empty or is not a WordPress export.");
  if (!channel.version && !channel.baseSiteUrl)
    throw new WxrError("This RSS file is not a WordPress export (it has no wp:wxr_version or wp:base_site_url).");
  sendChannel();
}

/**
 * The WordPress importer (issue 46): `npm run import:wordpress` and the
 * dashboard's import screen run this.
 *
 * 1. Read the export once (wxr.ts, streaming) into a small index: every
 *    item's id, kind, status, title, addresses, dates, author, terms and a
 *    hash of what it says, but not its body.
 * 2. Decide: which items become articles (posts; pages when chosen), their
 *    state (draft, scheduled, published; private ones stay unpublished),
 *    category (the mapping the person reviews: each WordPress category to a
 *    practice area, events, news or nothing; unknown ones listed), authors
 *    (team members matched by e-mail or name; others kept as a byline), the
 *    slug each will have, and every redirect from an old address, one hop.
 * 3. Unless it is a dry run: download the attachments (pictures through the
 *    site's picture pipeline, other files into `files/`), read the export
 *    again and write each article whose content changed since the last
 *    import (a second import of the same file changes nothing; an article
 *    edited here since is kept and reported), then write the redirects.
 *
 * The report lists counts, the category mapping, unmatched authors, every
 * redirect and every problem with the item it belongs to.
 */
import { createHash, randomUUID } from "node:crypto";
import { contentChanged } from "../db/content-events";
import { recordAudit, type Actor } from "../db/audit";
import { createArticle, updateArticle, type ArticleInput, type ArticleStateInput } from "../db/articles";
import { db } from "../db/client";
import { upsertRedirects, type RedirectValues } from "../db/redirects";
import {
  articleSlugsInUse,
  knownFiles,
  knownItems,
  saveKnownFile,
  saveKnownItem,
  teamForAuthorMatching,
  type KnownFile,
} from "../db/wordpress";
import { ImageRejected, saveBodyPicture, saveImage } from "../pictures/images";
import { log } from "../log";
import { articleText } from "../content/sanitize";
import { FILE_EXTENSIONS, getStorage } from "../storage/storage";
import { canonicalPath, canonicalQuery } from "../redirects/paths";
import { isSitePath } from "~/lib/route-patterns";
import { articleSlug, uniqueSlug } from "~/lib/slug";
import type { ArticleCategory } from "~/lib/practice";
import { CATEGORY_TARGETS, type CategoryTarget } from "~/lib/wordpress-import";
import { convertBody, type Rewriter } from "./body";
import { ownCopy, readWxr, type WxrSource, type WxrAuthor, type WxrChannel, type WxrItem, type WxrTerm } from "./wxr";

export { CATEGORY_TARGETS, type CategoryTarget };

export type ImportOptions = {
  /** The export: a path (the CLI) or a function that opens it as a stream (the dashboard's job, from the site's storage). */
  file: WxrSource;
  dryRun: boolean;
  /** Pages become articles, or are skipped (the person's choice in the report). */
  pages: "articles" | "skip";
  /** WordPress category slug → what it becomes; a category not named here is guessed, or unknown. */
  categoryMap?: Record<string, CategoryTarget>;
  /** The category of an article none of whose categories maps to a practice area or events. */
  defaultCategory?: ArticleCategory;
  actor: Actor;
  /** The site's route patterns (an old address that is one of this site's own pages gets no redirect). */
  sitePatterns: readonly string[];
  progress?: (progress: ImportProgress) => void;
  signal?: AbortSignal;
};

export type ImportProgress = {
  phase: "reading" | "downloading" | "articles" | "redirects" | "done";
  done: number;
  total: number;
  message: string;
};

export type ReportCategory = { slug: string; name: string; posts: number; mappedTo: CategoryTarget; known: boolean };
export type ReportAuthor = {
  login: string;
  name: string;
  email: string;
  posts: number;
  member: { id: number; name: string; slug: string } | null;
};
export type ReportProblem = { item: string; message: string };

export type ImportReport = {
  site: string;
  wxrVersion: string;
  dryRun: boolean;
  pages: "articles" | "skip";
  defaultCategory: ArticleCategory;
  counts: Record<string, number>;
  categories: ReportCategory[];
  tags: { slug: string; name: string; posts: number }[];
  authors: ReportAuthor[];
  redirects: { from: string; to: string }[];
  problems: ReportProblem[];
};

/** What the index keeps of an item: everything but the body (the excerpt cut short, whether it has a password, two of its meta). */
type Indexed = Omit<WxrItem, "content" | "meta" | "password"> & {
  alt: string;
  thumbnailId: number;
  hash: string;
  password: boolean;
};

const MAX_FILE_BYTES = 50 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;
const DOWNLOADS_AT_ONCE = 4;
const PICTURE_EXT = /\.(jpe?g|png|gif|webp|avif)$/i;
/** WordPress's resized copies: name-300x200.jpg is a size of name.jpg. */
const SIZE_SUFFIX = /-\d{1,5}x\d{1,5}(?=\.[a-z0-9]+$)/i;

export class ImportError extends Error {}

/** A guess for a category the person has not mapped, from its slug and name. */
export function guessCategory(slug: string, name: string): CategoryTarget | null {
  const text = `${slug} ${name}`.toLowerCase();
  if (/insur|claim|liabilit|coverage|subrogat/.test(text)) return "insurance";
  if (/construct|build|lien|contractor/.test(text)) return "construction";
  if (/cyber|privacy|breach|ransom|data[- ]?protect|incident/.test(text)) return "cyber";
  if (/event|seminar|webinar|conference/.test(text)) return "events";
  if (/news|announce|press|media/.test(text)) return "news";
  if (/^uncategori[sz]ed/.test(text)) return "none";
  return null;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
const hashOf = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 32);

/** The origins the old site was reachable at (http and https, with and without www). */
function oldOrigins(channel: WxrChannel): Set<string> {
  const out = new Set<string>();
  for (const address of [channel.baseSiteUrl, channel.baseBlogUrl, channel.link]) {
    try {
      const url = new URL(address);
      const bare = url.hostname.replace(/^www\./, "");
      for (const scheme of ["http:", "https:"])
        for (const host of [bare, `www.${bare}`]) out.add(`${scheme}//${host}${url.port ? `:${url.port}` : ""}`);
    } catch {
      /* not an address */
    }
  }
  return out;
}

/** A WordPress date ("2021-03-04 09:30:00", UTC when `gmt`) as a Date, or null ("0000-00-00 …"). */
function wpDate(text: string): Date | null {
  if (!text || text.startsWith("0000")) return null;
  const d = new Date(`${text.replace(" ", "T")}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

function titleText(title: string): string {
  return articleText(title).slice(0, 300);
}

/** Runs an import (or a dry run) and returns its report. */
export async function importWordPress(options: ImportOptions): Promise<ImportReport> {
  const progress = options.progress ?? (() => {});
  const problems: ReportProblem[] = [];
  // Kept until the report: copies, so a message naming a part of a body does not keep the body (ownCopy).
  const problem = (item: string, message: string) => problems.push({ item: ownCopy(item), message: ownCopy(message) });
  let channel: WxrChannel = { title: "", link: "", baseSiteUrl: "", baseBlogUrl: "", version: "" };
  const authors: WxrAuthor[] = [];
  const terms: WxrTerm[] = [];
  const index = new Map<number, Indexed>();

  // 1. The index.
  progress({ phase: "reading", done: 0, total: 0, message: "Reading the export…" });
  await readWxr(
    options.file,
    {
      channel: (c) => (channel = c),
      author: (a) => authors.push(a),
      term: (t) => terms.push(t),
      item: (item) => {
        if (!item.id) return;
        index.set(item.id, {
          id: item.id,
          type: item.type,
          status: item.status,
          title: item.title,
          link: item.link,
          guid: item.guid,
          slug: item.slug,
          dateGmt: item.dateGmt,
          date: item.date,
          creator: item.creator,
          parent: item.parent,
          attachmentUrl: item.attachmentUrl,
          alt: (item.meta._wp_attachment_image_alt ?? "").trim(),
          thumbnailId: Number(item.meta._thumbnail_id ?? 0) || 0,
          terms: item.terms,
          hash: hashOf([
            item.title,
            item.content,
            item.excerpt,
            item.status,
            item.dateGmt,
            item.date,
            item.creator,
            item.terms,
            item.meta._thumbnail_id ?? "",
          ]),
          excerpt: item.excerpt.slice(0, 2000),
          password: !!item.password,
        });
        if (index.size % 1000 === 0) progress({ phase: "reading", done: index.size, total: 0, message: `Read ${index.size} items…` });
      },
    },
    { signal: options.signal },
  );
  const site = (channel.baseSiteUrl || channel.link).replace(/\/+$/, "");
  if (!site) throw new ImportError("The export does not say which site it came from (no wp:base_site_url or channel link).");
  const origins = oldOrigins(channel);
  const siteRoute = isSitePath(options.sitePatterns);

  // 2. Decide.
  const defaultCategory = options.defaultCategory ?? "insurance";
  const categoryMap = options.categoryMap ?? {};
  const categoryTerms = new Map<string, { name: string; parent: string }>();
  for (const t of terms) if (t.kind === "category") categoryTerms.set(t.slug, { name: t.name, parent: t.parent });
  const tagTerms = new Map<string, string>();
  for (const t of terms) if (t.kind === "tag") tagTerms.set(t.slug, t.name);
  const categoryCounts = new Map<string, number>();
  const tagCounts = new Map<string, number>();
  const authorCounts = new Map<string, number>();

  const attachments = [...index.values()].filter((i) => i.type === "attachment");
  const entries = [...index.values()].filter((i) => i.type === "post" || i.type === "page");
  const counts: Record<string, number> = {
    posts: 0,
    pages: 0,
    attachments: attachments.length,
    published: 0,
    drafts: 0,
    scheduled: 0,
    private: 0,
    skipped: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    keptLocalEdits: 0,
    filesDownloaded: 0,
    filesKnown: 0,
    filesFailed: 0,
    redirects: 0,
    redirectsWritten: 0,
  };
  for (const i of index.values()) if (i.type !== "post" && i.type !== "page" && i.type !== "attachment") counts.skipped++;

  type Planned = Indexed & {
    state: ArticleStateInput;
    category: ArticleCategory;
    news: boolean;
    memberIds: number[];
    byline: string;
    newSlug: string;
    public: boolean;
  };
  const planned = new Map<number, Planned>();
  const members = await teamForAuthorMatching();
  const memberByEmail = new Map(members.filter((m) => m.email).map((m) => [m.email.toLowerCase(), m]));
  const memberByName = new Map(members.map((m) => [collapse(m.full_name), m]));
  const authorByLogin = new Map(authors.map((a) => [a.login, a]));
  const authorMember = (login: string) => {
    const a = authorByLogin.get(login);
    if (!a) return undefined;
    return (
      (a.email ? memberByEmail.get(a.email.toLowerCase()) : undefined) ??
      memberByName.get(collapse(a.displayName)) ??
      memberByName.get(collapse(`${a.firstName} ${a.lastName}`))
    );
  };
  const authorName = (login: string) => {
    const a = authorByLogin.get(login);
    return (a?.displayName || `${a?.firstName ?? ""} ${a?.lastName ?? ""}`.trim() || login).slice(0, 200);
  };
  const mapCategory = (slug: string): { target: CategoryTarget; known: boolean } => {
    const chosen = categoryMap[slug];
    if (chosen) return { target: chosen, known: true };
    const guess = guessCategory(slug, categoryTerms.get(slug)?.name ?? slug);
    return guess ? { target: guess, known: true } : { target: "none", known: false };
  };

  const known = await knownItems(site);
  const taken = await articleSlugsInUse();
  for (const item of entries) {
    const label = `${item.type} ${item.id} “${titleText(item.title) || "(no title)"}”`;
    if (item.type === "page") counts.pages++;
    else counts.posts++;
    if (item.type === "page" && options.pages === "skip") {
      counts.skipped++;
      continue;
    }
    if (item.status === "trash" || item.status === "auto-draft" || item.status === "inherit") {
      counts.skipped++;
      continue;
    }
    const at = wpDate(item.dateGmt) ?? wpDate(item.date);
    let state: ArticleStateInput;
    let isPublic = false;
    if (item.status === "publish" && !item.password) {
      state = { status: "published", publishAt: at };
      isPublic = true;
      counts.published++;
    } else if (item.status === "future") {
      state = { status: "scheduled", publishAt: at };
      counts.scheduled++;
      if (!at) problem(label, "Scheduled without a date: imported as a draft.");
    } else if (item.status === "private" || item.password) {
      state = { status: "draft" };
      counts.private++;
      problem(
        label,
        item.password
          ? "Protected by a password on WordPress: imported as a draft, not published."
          : "Private on WordPress: imported as a draft, not published.",
      );
    } else {
      state = { status: "draft" };
      counts.drafts++;
    }
    if (state.status === "scheduled" && !state.publishAt) state = { status: "draft" };
    const categories = item.terms.filter((t) => t.domain === "category");
    let category: ArticleCategory | null = null;
    let news = false;
    for (const t of categories) {
      categoryCounts.set(t.slug, (categoryCounts.get(t.slug) ?? 0) + 1);
      const { target } = mapCategory(t.slug);
      if (target === "news") news = true;
      else if (target !== "none" && !category) category = target;
    }
    for (const t of item.terms) if (t.domain === "post_tag") tagCounts.set(t.slug, (tagCounts.get(t.slug) ?? 0) + 1);
    if (item.type === "post" && !category && categories.length)
      problem(label, `None of its categories maps to a practice area or events: filed under ${defaultCategory}.`);
    authorCounts.set(item.creator, (authorCounts.get(item.creator) ?? 0) + 1);
    const member = authorMember(item.creator);
    const prior = known.get(item.id);
    let newSlug: string;
    if (prior?.article && !prior.article.trashed) newSlug = prior.article.slug;
    else {
      newSlug = uniqueSlug(articleSlug(titleText(item.title) || item.slug || `post-${item.id}`), taken);
      taken.add(newSlug);
    }
    planned.set(item.id, {
      ...item,
      state,
      category: category ?? defaultCategory,
      news,
      memberIds: member ? [member.id] : [],
      byline: member ? "" : authorName(item.creator),
      newSlug,
      public: isPublic,
    });
  }

  // Files: what earlier imports downloaded, and where each attachment will be.
  const files = await knownFiles();
  const originalOf = (url: string) => url.replace(SIZE_SUFFIX, "");
  const attachmentByUrl = new Map(attachments.filter((a) => a.attachmentUrl).map((a) => [a.attachmentUrl, a]));
  const isOld = (url: URL) => origins.has(url.origin);
  const absolute = (href: string): URL | null => {
    try {
      return new URL(href, `${site}/`);
    } catch {
      return null;
    }
  };

  // Redirects: every old address, one hop, to the page that answers 200.
  const redirectsOut = new Map<string, { source: string; query: string; target: string; from: string }>();
  const addRedirect = (from: string, target: string, item: string) => {
    const url = absolute(from);
    if (!url || !isOld(url)) return;
    const source = canonicalPath(url.pathname);
    if (!source) return;
    const query = canonicalQuery(url.search);
    if (!query && siteRoute(source)) {
      problem(item, `${url.pathname} is an address of this site's own pages: no redirect made (it would hide that page).`);
      return;
    }
    if (!query && canonicalPath(target) === source) return;
    redirectsOut.set(`${source}?${query}`, { source, query, target, from: `${url.pathname}${url.search}` });
  };
  const postUrl = (p: Planned) => `/post/${p.newSlug}`;
  const categoryPath = (slug: string): string => {
    const parts: string[] = [];
    for (let s: string | undefined = slug, n = 0; s && n < 10; s = categoryTerms.get(s)?.parent, n++) parts.unshift(s);
    return parts.join("/");
  };
  for (const slug of new Set([...categoryTerms.keys(), ...categoryCounts.keys()])) {
    const { target } = mapCategory(slug);
    addRedirect(`/category/${categoryPath(slug)}/`, target === "none" ? "/insights" : `/insights?category=${target}`, `category ${slug}`);
  }
  for (const [slug, name] of new Map([...tagTerms, ...[...tagCounts.keys()].filter((s) => !tagTerms.has(s)).map((s) => [s, s] as const)])) {
    addRedirect(`/tag/${slug}/`, `/search?q=${encodeURIComponent(name)}`, `tag ${slug}`);
  }
  for (const a of authors) {
    const member = authorMember(a.login);
    const nicename = a.login.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
    addRedirect(`/author/${nicename}/`, member ? `/insights?author=${encodeURIComponent(member.slug)}` : "/insights", `author ${a.login}`);
  }
  addRedirect("/feed/", "/insights/feed.xml", "feed");
  addRedirect("/feed/rss2/", "/insights/feed.xml", "feed");

  const report: ImportReport = {
    site,
    wxrVersion: channel.version,
    dryRun: options.dryRun,
    pages: options.pages,
    defaultCategory,
    counts,
    categories: [...new Set([...categoryTerms.keys(), ...categoryCounts.keys()])].map((slug) => {
      const { target, known: k } = mapCategory(slug);
      return { slug, name: categoryTerms.get(slug)?.name ?? slug, posts: categoryCounts.get(slug) ?? 0, mappedTo: target, known: k };
    }),
    tags: [...tagCounts].map(([slug, posts]) => ({ slug, name: tagTerms.get(slug) ?? slug, posts })),
    authors: authors.map((a) => {
      const m = authorMember(a.login);
      return {
        login: a.login,
        name: authorName(a.login),
        email: a.email,
        posts: authorCounts.get(a.login) ?? 0,
        member: m ? { id: m.id, name: m.full_name, slug: m.slug } : null,
      };
    }),
    redirects: [],
    problems,
  };
  for (const c of report.categories)
    if (!c.known)
      problem(
        `category ${c.slug}`,
        `“${c.name}” has no practice area, events or news mapped: choose one, or its posts are filed under ${defaultCategory}.`,
      );
  for (const a of report.authors)
    if (!a.member && a.posts) problem(`author ${a.login}`, `${a.name} is not on the team: their ${a.posts} article(s) name them as text.`);

  // 3a. Attachments.
  const fileFor = (url: string): KnownFile | undefined => files.get(url) ?? files.get(originalOf(url));
  const downloads = attachments.filter((a) => a.attachmentUrl && !fileFor(a.attachmentUrl));
  counts.filesKnown = attachments.length - downloads.length;
  const featuredIds = new Set([...planned.values()].map((p) => p.thumbnailId).filter(Boolean));
  if (!options.dryRun) {
    let done = 0;
    const queue = [...downloads];
    const worker = async () => {
      for (let a = queue.shift(); a; a = queue.shift()) {
        if (options.signal?.aborted) return;
        const stored = await fetchAndStore(a.attachmentUrl, `attachment ${a.id}`, problem);
        if (stored) {
          files.set(a.attachmentUrl, stored);
          counts.filesDownloaded++;
        } else counts.filesFailed++;
        done++;
        if (done % 20 === 0 || done === downloads.length)
          progress({ phase: "downloading", done, total: downloads.length, message: `Downloaded ${done} of ${downloads.length} files…` });
      }
    };
    await Promise.all(Array.from({ length: DOWNLOADS_AT_ONCE }, worker));
    // Featured pictures: the article picture pipeline (its own widths).
    for (const id of featuredIds) {
      const a = index.get(id);
      if (!a?.attachmentUrl || files.has(`${a.attachmentUrl}#featured`)) continue;
      const stored = await fetchAndStore(a.attachmentUrl, `attachment ${a.id}`, problem, "featured");
      if (stored) files.set(`${a.attachmentUrl}#featured`, stored);
    }
  }
  const newFileUrl = (old: string): string | null => fileFor(old)?.url ?? null;
  for (const a of attachments) {
    // A dry run downloads nothing: the report names where each file will be.
    const to = newFileUrl(a.attachmentUrl) ?? (options.dryRun ? "(the downloaded file)" : null);
    if (!to) continue;
    addRedirect(a.attachmentUrl, to, `attachment ${a.id}`);
    if (a.link && a.link !== a.attachmentUrl) addRedirect(a.link, to, `attachment ${a.id}`);
    addRedirect(`/?attachment_id=${a.id}`, to, `attachment ${a.id}`);
  }

  // 3b. Articles: the export read again, one body at a time.
  const postByPath = new Map<string, Planned>();
  for (const p of planned.values()) {
    const url = absolute(p.link);
    if (url && isOld(url)) postByPath.set(canonicalPath(url.pathname) ?? "", p);
  }
  const idFromQuery = (url: URL) =>
    Number(url.searchParams.get("p") ?? url.searchParams.get("page_id") ?? url.searchParams.get("attachment_id") ?? 0);
  const makeRewriter = (label: string, extraDownloads: string[]): Rewriter => ({
    picture(src) {
      const url = absolute(src);
      if (!url || !isOld(url)) return null;
      const old = url.toString();
      const stored = fileFor(old) ?? fileFor(`${url.origin}${url.pathname}`);
      const attachment = attachmentByUrl.get(originalOf(`${url.origin}${url.pathname}`));
      if (!stored) {
        if (!attachment) extraDownloads.push(`${url.origin}${url.pathname}`);
        return null;
      }
      if (stored.kind !== "picture") return null;
      const alt = attachment?.alt || (attachment && !/^[\w-]+$/.test(attachment.title) ? titleText(attachment.title) : "");
      return { src: stored.url, alt, width: stored.width ?? undefined, height: stored.height ?? undefined };
    },
    link(href) {
      const url = absolute(href);
      if (!url || !isOld(url)) return null;
      const byId = idFromQuery(url);
      const target = byId ? planned.get(byId) : postByPath.get(canonicalPath(url.pathname) ?? "");
      if (target) return postUrl(target);
      if (byId && index.get(byId)?.type === "attachment") return newFileUrl(index.get(byId)!.attachmentUrl);
      const file = newFileUrl(`${url.origin}${url.pathname}`);
      if (file) return file;
      const redirect = redirectsOut.get(`${canonicalPath(url.pathname)}?${canonicalQuery(url.search)}`);
      if (redirect) return redirect.target;
      problem(
        label,
        `A link to ${url.pathname}${url.search} on the old site points to nothing that was imported: it now points to this site's address of the same path.`,
      );
      return `${url.pathname}${url.search}${url.hash}`;
    },
    gallery(ids) {
      return ids
        .map((id) => index.get(id))
        .filter((a): a is Indexed => !!a?.attachmentUrl)
        .map((a) => `<p><img src="${a.attachmentUrl}" alt="${(a.alt || titleText(a.title)).replace(/"/g, "&quot;")}"></p>`)
        .join("");
    },
  });

  let written = 0;
  const total = planned.size;
  await readWxr(
    options.file,
    {
      item: async (item) => {
        const p = planned.get(item.id);
        if (!p) return;
        const label = `${p.type} ${p.id} “${titleText(p.title) || "(no title)"}”`;
        let extra: string[] = [];
        let converted = convertBody(item.content, makeRewriter(label, extra));
        if (extra.length && !options.dryRun) {
          // Pictures of the old site that are not attachments: downloaded once, then the body converted again.
          for (const url of new Set(extra)) {
            const stored = await fetchAndStore(url, label, problem);
            if (stored) {
              files.set(ownCopy(url), stored);
              counts.filesDownloaded++;
            } else counts.filesFailed++;
          }
          extra = [];
          converted = convertBody(item.content, makeRewriter(label, extra));
        }
        for (const s of converted.problems.shortcodes)
          if (!["caption", "wp_caption", "gallery", "embed"].includes(s))
            problem(label, `The shortcode [${s}] was replaced by its plain content.`);
        // A dry run downloads nothing, so every picture of the old site is still at its old address: not a problem yet.
        for (const src of options.dryRun ? [] : new Set(converted.problems.picturesKept)) {
          const url = absolute(src);
          if (url && isOld(url)) problem(label, `The picture ${url.pathname} could not be brought over: the old address is kept.`);
        }
        for (const src of new Set(converted.problems.picturesWithoutAlt))
          problem(label, `The picture ${src} has no alt text: it was left out. Add it again with a description.`);
        const thumbnail = p.thumbnailId ? index.get(p.thumbnailId) : undefined;
        const img = thumbnail ? (files.get(`${thumbnail.attachmentUrl}#featured`)?.url ?? "") : "";
        const input: ArticleInput = {
          title: titleText(p.title) || `(untitled ${p.type} ${p.id})`,
          img,
          category: p.category,
          news: p.news,
          priority: false,
          copy: converted.html,
          summary: articleText(p.excerpt).slice(0, 300),
          byline: p.byline,
          authors: p.memberIds,
        };
        const hash = hashOf([p.hash, input.category, input.news, input.authors, input.byline, input.img, converted.html.length]);
        const prior = known.get(p.id);
        written++;
        if (written % 25 === 0 || written === total)
          progress({ phase: "articles", done: written, total, message: `Articles: ${written} of ${total}…` });
        if (prior && (!prior.article || prior.article.trashed)) {
          counts.unchanged++;
          problem(label, "Deleted here after an earlier import: not imported again.");
          return;
        }
        if (prior?.source_hash === hash) {
          counts.unchanged++;
          return;
        }
        if (prior?.article && prior.article_version !== null && prior.article.version !== prior.article_version) {
          counts.keptLocalEdits++;
          problem(label, "Changed in the new export, but edited here since the last import: kept as it is here.");
          return;
        }
        if (options.dryRun) {
          counts[prior?.article ? "updated" : "created"]++;
          return;
        }
        const created_at = wpDate(p.dateGmt) ?? wpDate(p.date) ?? undefined;
        let articleId: number;
        let version: number;
        if (prior?.article && prior.article_id !== null) {
          const result = await updateArticle(prior.article_id, { ...input, state: p.state }, options.actor);
          if (!result) return;
          articleId = result.after.id;
          version = result.after.version;
          p.newSlug = result.after.slug;
          counts.updated++;
        } else {
          const article = await createArticle(
            { ...input, state: p.state, slug: p.newSlug, ...(created_at ? { created_at } : {}) },
            options.actor,
          );
          if (article.slug !== p.newSlug)
            problem(label, `Its address became /post/${article.slug} (another article took /post/${p.newSlug} meanwhile).`);
          articleId = article.id;
          version = article.version;
          p.newSlug = article.slug;
          counts.created++;
        }
        await saveKnownItem(db(), { site, wp_id: p.id, kind: p.type, article_id: articleId, source_hash: hash, article_version: version });
      },
    },
    { signal: options.signal },
  );

  // 3c. Redirects: the posts' (after their writes, so a retitled post's redirects name its new address), then all of them.
  for (const p of planned.values()) {
    if (!p.public) continue;
    const label = `${p.type} ${p.id}`;
    addRedirect(p.link, postUrl(p), label);
    addRedirect(`/?${p.type === "page" ? "page_id" : "p"}=${p.id}`, postUrl(p), label);
    if (p.guid) addRedirect(p.guid, postUrl(p), label);
  }
  const rows: RedirectValues[] = [...redirectsOut.values()].map((r) => ({
    match: "exact",
    source: r.source,
    query: r.query,
    target: r.target,
    status: 301,
    enabled: true,
    origin: "wordpress",
    note: "",
  }));
  report.redirects = [...redirectsOut.values()].map((r) => ({ from: r.from, to: r.target }));
  counts.redirects = rows.length;
  if (!options.dryRun) {
    progress({ phase: "redirects", done: 0, total: rows.length, message: `Writing ${rows.length} redirects…` });
    counts.redirectsWritten = await db().transaction(async (tx) => {
      const n = await upsertRedirects(tx, rows);
      await recordAudit(tx, options.actor, {
        action: "import",
        itemType: "site",
        itemLabel: `WordPress import of ${site}: ${counts.created} articles created, ${counts.updated} updated, ${counts.filesDownloaded} files, ${n} redirects new or changed`,
      });
      return n;
    });
    if (counts.redirectsWritten) contentChanged("redirects");
  }
  progress({ phase: "done", done: total, total, message: "Done." });
  return report;
}

/** Downloads one file of the old site and stores it (a picture through the picture pipeline); a failure is a problem, never an exception. */
async function fetchAndStore(
  url: string,
  item: string,
  problem: (item: string, message: string) => void,
  as: "body" | "featured" = "body",
): Promise<KnownFile | undefined> {
  const path = new URL(url).pathname;
  const ext = (path.match(/\.([a-z0-9]+)$/i)?.[1] ?? "").toLowerCase();
  const picture = PICTURE_EXT.test(path);
  if (!picture && !(FILE_EXTENSIONS as readonly string[]).includes(ext)) {
    problem(item, `${path}: files of this kind (.${ext || "?"}) are not served by this site; the old address is kept.`);
    return undefined;
  }
  let bytes: Uint8Array;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: "follow" });
    if (!response.ok) throw new Error(`the old site answered ${response.status}`);
    const length = Number(response.headers.get("content-length") ?? 0);
    if (length > MAX_FILE_BYTES) throw new Error("it is larger than 50 MB");
    bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > MAX_FILE_BYTES) throw new Error("it is larger than 50 MB");
  } catch (error) {
    problem(item, `${path} could not be downloaded (${(error as Error).message}): the old address is kept.`);
    return undefined;
  }
  try {
    if (picture) {
      if (as === "featured") {
        const name = await saveImage("articles", bytes);
        const row = { source_url: `${url}#featured`, url: name, kind: "featured", width: null, height: null };
        await saveKnownFile(row);
        return row;
      }
      const { name, width, height } = await saveBodyPicture(bytes);
      const row = { source_url: url, url: `/images/articles/${name}`, kind: "picture", width, height };
      await saveKnownFile(row);
      return row;
    }
    const name = `${randomUUID()}.${ext}`;
    await getStorage().put(`files/${name}`, bytes);
    const row = { source_url: url, url: `/files/${name}`, kind: "file", width: null, height: null };
    await saveKnownFile(row);
    return row;
  } catch (error) {
    const reason = error instanceof ImageRejected ? error.message : (error as Error).message;
    if (!(error instanceof ImageRejected)) log("warn", "wordpress import: file not stored", { url, error: reason });
    problem(item, `${path} could not be stored (${reason}): the old address is kept.`);
    return undefined;
  }
}

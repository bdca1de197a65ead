/**
 * Drafts kept while writing (issue 12), around the article form:
 *
 * - Every change is copied to this browser's localStorage at once (per
 *   person and article; "new" for the new-article form), so nothing typed is
 *   lost even while the server refuses (a session that ended, no network).
 * - About 10 seconds after a change, and at once when the tab is hidden, the
 *   fields go to /dashboard/articles/autosave: the person's working copy in
 *   the database (db/autosaves.ts). It never changes the article (a
 *   published one stays as it is) and never creates one: a new article's
 *   copy is kept apart until the first real save, so there are no duplicates.
 *   "Draft saved at 10:42" is announced politely.
 * - A save or autosave answered 401 (the session ended) keeps the form as it
 *   is and offers "Sign in again" (/admin?redirectTo=this form); after
 *   signing in, the form opens with the kept text and the notice "Restored
 *   your unsaved changes from …", with a way to discard them.
 * - On opening, the newest of the server copy and a browser copy the server
 *   never got is restored when it differs from what the form shows. A
 *   successful save removes both (the action removes the server copy).
 *
 * Without JavaScript none of this runs; the form works as before.
 */
import { type ReactNode, useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from "react";
import { useActionData, useLocation, useNavigation } from "react-router";
import { articleValuesFromForm, type ArticleFormValues } from "~/lib/forms/article";
import { AUTOSAVE_TEXT, autosaveValuesSchema, draftValuesOf, sameDraft, type DraftValues, type KeptDraftData } from "~/lib/forms/autosave";
import { FIRM_TIME_ZONE, firmDateTimeText } from "~/lib/firm-time";
import { useHydrated } from "./hydrated";
import { btnSecondary, linkClass } from "./styles";

export const AUTOSAVE_URL = "/dashboard/articles/autosave";
/** About every 10 seconds of changes. */
export const AUTOSAVE_DELAY_MS = 10_000;
const POLL_MS = 1_000;
/** Browser copies older than this are dropped (the server keeps its copy as long). */
const LOCAL_MAX_AGE_MS = 30 * 86_400_000;
/** A request sent while the page goes away may be at most 64 KB (keepalive). */
const KEEPALIVE_MAX = 60_000;

type LocalDraft = { values: DraftValues; baseVersion: number | null; changedAt: number; synced: boolean };

export function draftStorageKey(userId: string, articleId: number | null) {
  return `firm:article-draft:${userId}:${articleId ?? "new"}`;
}

function readLocal(key: string): LocalDraft | undefined {
  try {
    const raw = JSON.parse(window.localStorage.getItem(key) ?? "null") as Partial<LocalDraft> | null;
    if (!raw || typeof raw.changedAt !== "number" || Date.now() - raw.changedAt > LOCAL_MAX_AGE_MS) return undefined;
    const values = autosaveValuesSchema.safeParse(raw.values);
    if (!values.success) return undefined;
    return {
      values: values.data,
      baseVersion: typeof raw.baseVersion === "number" ? raw.baseVersion : null,
      changedAt: raw.changedAt,
      synced: raw.synced === true,
    };
  } catch {
    return undefined;
  }
}

function writeLocal(key: string, draft: LocalDraft | null) {
  try {
    if (draft) window.localStorage.setItem(key, JSON.stringify(draft));
    else window.localStorage.removeItem(key);
  } catch {
    // Storage full or refused (private mode): the server copy still works.
  }
}

function timeText(date: Date) {
  return date.toLocaleTimeString("en-CA", { timeZone: FIRM_TIME_ZONE, hour: "numeric", minute: "2-digit" });
}

export type KeptDraftState = { values: ArticleFormValues; version?: number; key: string };

export function KeptDraft(props: {
  articleId: number | null;
  draft: KeptDraftData;
  /** What the form shows without a kept draft. */
  values: ArticleFormValues;
  version?: number;
  children: (state: KeptDraftState) => ReactNode;
}) {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigation = useNavigation();
  const actionData = useActionData<{ sessionEnded?: boolean; values?: unknown }>();
  const wrapper = useRef<HTMLDivElement>(null);
  const [restored, setRestored] = useState<{ values: ArticleFormValues; version?: number; at: Date } | null>(null);
  const [generation, setGeneration] = useState(0);
  const [status, setStatus] = useState("");
  const [sessionEnded, setSessionEnded] = useState(false);
  const { userId } = props.draft;
  const storageKey = draftStorageKey(userId, props.articleId);
  const version = restored ? restored.version : props.version;
  // What the timers and listeners below read when they fire: the latest render's values.
  const live = useRef({ version, storageKey, articleId: props.articleId, submitting: false, done: false });
  const ownSubmission = navigation.formData?.has("copy") === true;
  const submitting = ownSubmission && navigation.state === "submitting";
  useLayoutEffect(() => {
    live.current.version = version;
    live.current.storageKey = storageKey;
    live.current.articleId = props.articleId;
    live.current.submitting = submitting;
  });

  /** What the form holds now (read from the page, not from React). */
  const current = useCallback((): DraftValues | undefined => {
    const f = wrapper.current?.querySelector("form");
    return f ? draftValuesOf(new FormData(f)) : undefined;
  }, []);

  const send = useCallback(async (intent: "save" | "discard", values?: DraftValues, leaving = false): Promise<Response | undefined> => {
    const body = new FormData();
    body.append("intent", intent);
    body.append("article", live.current.articleId === null ? "new" : String(live.current.articleId));
    if (live.current.version) body.append("version", String(live.current.version));
    if (values) body.append("values", JSON.stringify(values));
    const size = values ? JSON.stringify(values).length : 0;
    try {
      return await fetch(AUTOSAVE_URL, {
        method: "POST",
        body,
        headers: { Accept: "application/json" },
        keepalive: leaving && size < KEEPALIVE_MAX,
      });
    } catch {
      return undefined;
    }
  }, []);

  // Opening: bring back the newest kept copy that differs from what the form shows (once, after hydration).
  // It reads the browser's storage and the form itself, outside React: an effect, with the render's latest values.
  const restoreKeptCopy = useEffectEvent(() => {
    if (actionData) return; // a refused save shows what was just typed
    const local = readLocal(storageKey);
    const server = props.draft.autosave;
    type Candidate = { values: DraftValues; baseVersion: number | null; at: Date };
    const candidates: Candidate[] = [];
    if (local && !local.synced) candidates.push({ values: local.values, baseVersion: local.baseVersion, at: new Date(local.changedAt) });
    else if (local && !server) writeLocal(storageKey, null); // the server copy it matched is gone: saved or discarded
    if (server) candidates.push({ values: server.values, baseVersion: server.baseVersion, at: new Date(server.savedAt) });
    const newest = candidates.sort((a, b) => b.at.getTime() - a.at.getTime())[0];
    const shown = current();
    if (!newest || !shown) return;
    if (sameDraft(newest.values, shown)) {
      // Nothing unsaved after all (a copy left by a save that raced an autosave).
      writeLocal(storageKey, null);
      if (server) void send("discard");
      return;
    }
    setGeneration(generation + 1);
    setRestored({ values: articleValuesFromForm(newest.values), version: newest.baseVersion ?? props.version, at: newest.at });
  });
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- what it restores is read from outside React (the browser's storage, the form) once after hydration.
    if (hydrated) restoreKeptCopy();
  }, [hydrated]);

  // Watching the form: a browser copy of every change, the server copy ~10 s later and when the tab is hidden.
  useEffect(() => {
    if (!hydrated) return;
    let lastSeen = JSON.stringify(current() ?? {});
    // A restored copy may be one the server never got: it is sent at the first autosave.
    let lastSynced = restored ? "" : lastSeen;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let soon: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    let again = false;

    const check = () => {
      if (live.current.done) return;
      const values = current();
      if (!values) return;
      const snapshot = JSON.stringify(values);
      if (snapshot === lastSeen) return;
      lastSeen = snapshot;
      writeLocal(live.current.storageKey, { values, baseVersion: live.current.version ?? null, changedAt: Date.now(), synced: false });
      timer ??= setTimeout(() => void autosave(), AUTOSAVE_DELAY_MS);
    };

    const autosave = async (leaving = false) => {
      clearTimeout(timer);
      timer = undefined;
      check();
      if (live.current.done || live.current.submitting) return;
      if (inFlight) {
        again = true;
        return;
      }
      const values = current();
      if (!values) return;
      const snapshot = JSON.stringify(values);
      if (snapshot === lastSynced) return;
      inFlight = true;
      const res = await send("save", values, leaving);
      inFlight = false;
      if (live.current.done) return;
      if (res?.status === 200) {
        lastSynced = snapshot;
        setSessionEnded(false);
        const local = readLocal(live.current.storageKey);
        if (local && JSON.stringify(local.values) === snapshot) writeLocal(live.current.storageKey, { ...local, synced: true });
        let savedAt = new Date();
        try {
          savedAt = new Date(((await res.json()) as { savedAt: string }).savedAt);
        } catch {
          /* the time of the answer will do */
        }
        setStatus(AUTOSAVE_TEXT.saved(timeText(savedAt)));
      } else if (res?.status === 401) {
        setSessionEnded(true);
        setStatus(AUTOSAVE_TEXT.sessionEnded);
      } else {
        setStatus(AUTOSAVE_TEXT.keptHere);
      }
      if (again) {
        again = false;
        timer ??= setTimeout(() => void autosave(), AUTOSAVE_DELAY_MS);
      }
    };

    const onInput = () => {
      soon ??= setTimeout(() => {
        soon = undefined;
        check();
      }, 300);
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") void autosave(true);
    };
    const onPageHide = () => check();
    const el = wrapper.current;
    el?.addEventListener("input", onInput, true);
    el?.addEventListener("change", onInput, true);
    el?.addEventListener("submit", check, true);
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onPageHide);
    const poll = setInterval(check, POLL_MS);
    // A restored copy the server has not got yet is sent soon.
    if (restored) timer = setTimeout(() => void autosave(), AUTOSAVE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(soon);
      clearInterval(poll);
      el?.removeEventListener("input", onInput, true);
      el?.removeEventListener("change", onInput, true);
      el?.removeEventListener("submit", check, true);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onPageHide);
    };
    // Started again when the form is remounted (restored or discarded).
  }, [hydrated, generation, restored, send, current]);

  // The article form's own save: no autosave meanwhile (live.submitting, above); after it succeeded (a redirect), nothing is kept.
  useEffect(() => {
    if (ownSubmission && navigation.state === "loading") {
      live.current.done = true;
      writeLocal(storageKey, null);
    }
  }, [ownSubmission, navigation.state, storageKey]);

  // A save refused because the session ended: the form stays as typed; the browser copy has it.
  const [answer, setAnswer] = useState(actionData);
  if (answer !== actionData) {
    setAnswer(actionData);
    if (actionData?.sessionEnded) setSessionEnded(true);
  }

  function discard() {
    writeLocal(storageKey, null);
    void send("discard");
    const next = generation + 1;
    setGeneration(next);
    setRestored(null);
    setStatus(AUTOSAVE_TEXT.discarded);
  }

  const signInHref = `/admin?redirectTo=${encodeURIComponent(location.pathname)}`;
  return (
    <div ref={wrapper}>
      <div role="status" aria-live="polite" data-testid="kept-draft-notice">
        {restored ? (
          <div className="mb-6 flex flex-wrap items-center gap-3 rounded border-l-4 border-accent bg-soft px-4 py-3">
            <p className="font-semibold">{AUTOSAVE_TEXT.restored(firmDateTimeText(restored.at))}</p>
            <button type="button" className={btnSecondary} onClick={discard}>
              {AUTOSAVE_TEXT.discard}
            </button>
          </div>
        ) : null}
        {sessionEnded ? (
          <div className="mb-6 rounded border-l-4 border-error bg-[#fbeeee] px-4 py-3">
            <p className="font-semibold text-error">
              {AUTOSAVE_TEXT.sessionEnded} {AUTOSAVE_TEXT.sessionEndedKept}
            </p>
            <p className="mt-2">
              <a
                href={signInHref}
                className={linkClass}
                onClick={() => {
                  // The latest text goes with the browser copy before the page changes.
                  const values = current();
                  if (values) writeLocal(storageKey, { values, baseVersion: version ?? null, changedAt: Date.now(), synced: false });
                }}
              >
                {AUTOSAVE_TEXT.signInAgain}
              </a>
            </p>
          </div>
        ) : null}
      </div>
      <p className="-mt-2 mb-4 min-h-6 text-sm text-muted" role="status" aria-live="polite" data-testid="autosave-status">
        {status}
      </p>
      {props.children({
        values: restored?.values ?? props.values,
        version,
        key: `draft-${generation}`,
      })}
    </div>
  );
}

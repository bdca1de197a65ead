/**
 * The edit screens' "Share a preview" and "Revoke" buttons (a small form of
 * their own posting `intent` to the edit route). The new link is shown once:
 * only its hash is stored.
 */
import { data } from "react-router";
import { FIRM_TIME_ZONE } from "~/lib/firm-time";
import type { Actor } from "../db/audit";
import { createPreviewLink, revokePreviewLink, type PreviewItemType } from "../db/previews";
import { parseId } from "../http/form-post";
import { getEnv } from "../env";
import { log } from "../log";

export const PREVIEW_INTENTS = ["share-preview", "revoke-preview"] as const;

export type PreviewActionData = { status: { tone: "success" | "error"; text: string }; shareUrl?: string };

/** The intent of a url-encoded preview form, or null for anything else (the item's own form). */
export async function previewIntent(request: Request): Promise<{ intent: (typeof PREVIEW_INTENTS)[number]; form: FormData } | null> {
  if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return null;
  // These forms are a few bytes, sent with their length: anything else is left to the item's own form (which checks sizes before reading).
  const length = Number(request.headers.get("content-length") ?? "");
  if (!Number.isFinite(length) || length <= 0 || length > 4096) return null;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  if (!form) return null;
  const intent = form.get("intent");
  return intent === "share-preview" || intent === "revoke-preview" ? { intent, form } : null;
}

export async function previewAction(
  found: { intent: (typeof PREVIEW_INTENTS)[number]; form: FormData },
  item: { type: PreviewItemType; id: number; label: string; kind: "post" | "lawyer" },
  actor: Actor,
) {
  try {
    if (found.intent === "share-preview") {
      const { token, expires } = await createPreviewLink(item.type, item.id, item.label, actor);
      const shareUrl = `${getEnv().publicUrl}/preview/shared/${item.kind}/${token}`;
      return data<PreviewActionData>({
        status: {
          tone: "success",
          text: `Preview link made. It works until ${expires.toLocaleDateString("en-CA", { timeZone: FIRM_TIME_ZONE, dateStyle: "long" })} unless revoked.`,
        },
        shareUrl,
      });
    }
    const id = parseId(found.form.get("link"));
    const done = id !== null && (await revokePreviewLink(item.type, item.id, id, item.label, actor));
    return data<PreviewActionData>(
      { status: done ? { tone: "success", text: "Preview link revoked." } : { tone: "error", text: "That preview link was not found." } },
      { status: done ? 200 : 404 },
    );
  } catch (error) {
    log("error", "preview link not changed", { error: (error as Error).message });
    return data<PreviewActionData>(
      { status: { tone: "error", text: "The preview link could not be changed. Please try again." } },
      { status: 500 },
    );
  }
}

/**
 * "Sign in with a passkey" and "Add a passkey": the browser's WebAuthn prompt
 * (@simplewebauthn/browser) with options from our own resource route, then the
 * answer posted to the page's own action as a form field. Shown only where the
 * browser supports passkeys and JavaScript runs.
 */
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useSubmit } from "react-router";
import { useBrowserValue } from "./hydrated";
import { useAnnounce } from "./status";
import { btnSecondary } from "./styles";

export function PasskeyButton({
  optionsUrl,
  intent,
  label,
  fields = {},
  failure,
}: {
  optionsUrl: string;
  intent: string;
  label: string;
  fields?: Record<string, string>;
  failure: string;
}) {
  const submit = useSubmit();
  const announce = useAnnounce();
  // Shown only once the browser says it can (never in the server's render, so hydration matches).
  const supported = useBrowserValue(() => "PublicKeyCredential" in window, false);
  const [busy, setBusy] = useState(false);
  if (!supported) return null;
  async function run() {
    setBusy(true);
    announce(null);
    try {
      const res = await fetch(optionsUrl, { headers: { accept: "application/json" }, credentials: "same-origin" });
      if (!res.ok) throw new Error(`options ${res.status}`);
      const { startAuthentication, startRegistration } = await import("@simplewebauthn/browser");
      const answer = intent.includes("add")
        ? await startRegistration({ optionsJSON: (await res.json()) as Parameters<typeof startRegistration>[0]["optionsJSON"] })
        : await startAuthentication({ optionsJSON: (await res.json()) as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
      await submit({ ...fields, intent, response: JSON.stringify(answer) }, { method: "post" });
    } catch (error) {
      announce({ tone: "error", text: failure });
      console.warn("passkey", error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" className={`${btnSecondary} w-full`} onClick={() => void run()} disabled={busy} aria-busy={busy || undefined}>
      <KeyRound aria-hidden="true" className="size-4" /> {label}
    </button>
  );
}

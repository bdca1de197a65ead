/** The frame of the pages around sign-in (login, code, forgot password, e-mailed links): one heading, the status region, the content. */
import type { ReactNode } from "react";
import { StatusRegion } from "./status";
import type { Status } from "~/lib/forms/messages";

export function AuthPage({ title, status, children }: { title: string; status: Status | null | undefined; children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-ground px-4 py-16">
      <div className="w-full max-w-md">
        <h1 className="text-center text-3xl font-semibold">{title}</h1>
        <div className="mt-6">
          <StatusRegion status={status} />
        </div>
        {children}
      </div>
    </main>
  );
}

export const authCard = "mt-4 space-y-5 rounded border border-line bg-white p-6 shadow-sm";

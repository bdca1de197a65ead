/**
 * /dashboard/staff (owners and admins): every staff account with its role,
 * status, two-factor sign-in and last sign-in; invite by e-mail with a role;
 * send again or withdraw an invitation; change a role; deactivate (ends that
 * person's sessions at once) and reactivate. Owners also decide here whether
 * two-factor sign-in is required for everyone. Who may do what: roles.ts.
 */
import { ScrollRegion } from "~/components/scroll-region";
import { Mail, ShieldCheck, UserPlus } from "lucide-react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/staff";
import { staffAction, type StaffData } from "~/.server/admin/staff.server";
import { twoFactorRequired } from "~/.server/db/settings";
import { listStaff } from "~/.server/db/staff";
import { can, canManageRole, ROLE_LABELS, ROLES } from "~/.server/auth/roles";
import { AdminPage } from "~/components/admin/admin-page";
import { ColumnHeads } from "~/components/admin/column-heads";
import { useClientCheck } from "~/components/admin/client-check";
import { TextField } from "~/components/admin/fields";
import { useFormKey } from "~/components/admin/form-key";
import { CheckedForm } from "~/components/admin/checked-form";
import { btnDanger, btnPrimary, btnSecondary, inputClass, labelClass } from "~/components/admin/styles";
import { inviteSchema } from "~/lib/forms/staff";
import { staffOf } from "~/.server/admin/guard.server";
import { FIRM_TIME_ZONE } from "~/lib/firm-time";
import type { RouteHandle } from "~/lib/route-handle";

export const handle = {
  permission: "staff",
  nav: { label: "Staff", text: "Invite people, change roles, deactivate accounts.", order: 110, icon: "staff" },
} satisfies RouteHandle;

function when(date: Date | null | undefined): string {
  if (!date) return "Never";
  return new Intl.DateTimeFormat("en-CA", { dateStyle: "medium", timeStyle: "short", timeZone: FIRM_TIME_ZONE }).format(date);
}

export async function loader({ context }: Route.LoaderArgs) {
  const staff = staffOf(context);
  const [accounts, required] = await Promise.all([listStaff(), twoFactorRequired()]);
  return {
    me: staff.userId,
    canSecurity: can(staff.role, "security"),
    required,
    roles: ROLES.filter((r) => canManageRole(staff.role, r)).map((r) => ({ value: r, label: ROLE_LABELS[r] })),
    accounts: accounts.map((a) => ({
      id: a.id,
      name: a.name,
      email: a.email,
      role: a.role,
      roleLabel: ROLE_LABELS[a.role],
      status: a.status,
      twoFactor: a.twoFactor,
      passkeys: a.passkeys,
      lastSignIn: when(a.lastSignInAt),
      invitationExpires: a.invitationExpiresAt ? when(a.invitationExpiresAt) : null,
      invitationExpired: a.invitationExpiresAt ? a.invitationExpiresAt.getTime() < Date.now() : false,
      manageable: a.id !== staff.userId && canManageRole(staff.role, a.role),
    })),
  };
}

export function action({ request, context }: Route.ActionArgs) {
  return staffAction(request, context);
}

function StatusBadge({ status, expired }: { status: string; expired: boolean }) {
  const text = status === "invited" ? (expired ? "Invited (link expired)" : "Invited") : status === "active" ? "Active" : "Deactivated";
  const tone =
    status === "active"
      ? "border-success text-success"
      : status === "invited"
        ? "border-accent text-accent-dark"
        : "border-muted text-muted";
  return <span className={`inline-block rounded border px-2 py-0.5 text-sm font-semibold ${tone}`}>{text}</span>;
}

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData as StaffData | undefined;
  const key = useFormKey(actionData);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { clientErrors, onSubmit } = useClientCheck({ schema: inviteSchema });
  const errors = clientErrors ?? failed?.errors ?? {};
  const { accounts, roles } = loaderData;
  return (
    <AdminPage title="Staff" back={{ to: "/dashboard", label: "Dashboard" }}>
      <section aria-labelledby="invite-title" className="mb-8 rounded border border-line bg-white p-5">
        <h2 id="invite-title" className="flex items-center gap-2 text-xl font-semibold">
          <UserPlus aria-hidden="true" className="size-5 text-accent" /> Invite someone
        </h2>
        <p className="mt-1 text-muted">They receive an e-mail with a link to choose their password. The link works once, for 72 hours.</p>
        <CheckedForm
          key={key}
          errors={failed?.errors}
          onSubmit={onSubmit}
          labelledBy="invite-title"
          className="mt-4 flex flex-wrap items-start gap-4"
        >
          <input type="hidden" name="intent" value="invite" />
          <TextField
            name="email"
            label="Email"
            type="email"
            required
            maxLength={320}
            className="min-w-64 flex-1"
            defaultValue={failed?.values?.email ?? ""}
            error={errors.email}
          />
          <div>
            <label htmlFor="field-role" className={labelClass}>
              Role <span className="font-normal text-muted">(required)</span>
            </label>
            <select
              id="field-role"
              name="role"
              className={inputClass}
              defaultValue={failed?.values?.role ?? "editor"}
              aria-invalid={errors.role ? true : undefined}
              aria-describedby={errors.role ? "field-role-error" : "field-role-hint"}
            >
              {roles.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
            {errors.role ? (
              <p id="field-role-error" className="mt-1 text-sm font-semibold text-error">
                {errors.role}
              </p>
            ) : (
              <p id="field-role-hint" className="mt-1 text-sm text-muted">
                Editors: content only. Admins: content and staff. Events coordinators: events and their registrants only.
              </p>
            )}
          </div>
          <button type="submit" className={`${btnPrimary} mt-7`} disabled={busy}>
            <Mail aria-hidden="true" className="size-4" /> INVITE
          </button>
        </CheckedForm>
      </section>

      {loaderData.canSecurity ? (
        <section id="security" aria-labelledby="security-title" className="mb-8 rounded border border-line bg-white p-5">
          <h2 id="security-title" className="flex items-center gap-2 text-xl font-semibold">
            <ShieldCheck aria-hidden="true" className="size-5 text-accent" /> Two-factor sign-in
          </h2>
          <Form method="post" aria-labelledby="security-title" className="mt-3 flex flex-wrap items-center gap-4">
            <input type="hidden" name="intent" value="security" />
            <label className="flex items-center gap-2 font-semibold">
              <input type="checkbox" name="require_two_factor" defaultChecked={loaderData.required} className="size-5" />
              Require two-factor sign-in for every staff account
            </label>
            <button type="submit" className={btnSecondary} disabled={busy}>
              Save
            </button>
          </Form>
          <p className="mt-2 text-sm text-muted">A person without it is sent to set it up before reaching anything else.</p>
        </section>
      ) : null}

      <ScrollRegion className="overflow-x-auto rounded border border-line bg-white" label="Staff accounts">
        <table className="w-full text-left">
          <caption className="sr-only">Staff accounts</caption>
          <ColumnHeads names={["Person", "Role", "Status", "Two-factor", "Last sign-in", "Actions"]} />
          <tbody className="divide-y divide-line">
            {accounts.map((a) => (
              <tr key={a.id} id={`staff-${a.id}`} className="align-top">
                <th scope="row" className="min-w-52 px-4 py-3 font-normal wrap-anywhere">
                  <span className="block font-semibold text-ink">{a.status === "invited" ? a.email : a.name}</span>
                  {a.status === "invited" ? null : <span className="block text-sm text-muted">{a.email}</span>}
                  {a.id === loaderData.me ? <span className="text-sm text-muted">(you)</span> : null}
                </th>
                <td className="px-4 py-3">{a.roleLabel}</td>
                <td className="px-4 py-3">
                  <StatusBadge status={a.status} expired={a.invitationExpired} />
                  {a.status === "invited" && a.invitationExpires ? (
                    <span className="mt-1 block text-sm text-muted">
                      {a.invitationExpired ? "Expired" : "Expires"} {a.invitationExpires}
                    </span>
                  ) : null}
                </td>
                <td className="px-4 py-3">
                  {a.twoFactor ? "On" : "Off"}
                  {a.passkeys ? (
                    <span className="block text-sm text-muted">{a.passkeys === 1 ? "1 passkey" : `${a.passkeys} passkeys`}</span>
                  ) : null}
                </td>
                <td className="px-4 py-3">{a.lastSignIn}</td>
                <td className="px-4 py-3">
                  {a.manageable ? (
                    <div className="flex flex-wrap items-end gap-2">
                      {a.status !== "deactivated" ? (
                        <Form method="post" aria-label={`Role of ${a.email}`} className="flex flex-wrap items-end gap-2">
                          <input type="hidden" name="intent" value="role" />
                          <input type="hidden" name="id" value={a.id} />
                          <div>
                            <label htmlFor={`role-${a.id}`} className="block text-sm font-semibold wrap-anywhere">
                              Role of {a.email}
                            </label>
                            <select
                              id={`role-${a.id}`}
                              name="role"
                              defaultValue={a.role}
                              className="mt-1 rounded border border-muted bg-white px-2 py-1.5"
                            >
                              {roles.map((r) => (
                                <option key={r.value} value={r.value}>
                                  {r.label}
                                </option>
                              ))}
                            </select>
                          </div>
                          <button type="submit" className={btnSecondary} disabled={busy}>
                            Change role
                          </button>
                        </Form>
                      ) : null}
                      {a.status === "invited" ? (
                        <>
                          <AccountAction
                            intent="resend"
                            id={a.id}
                            busy={busy}
                            form={`Send the invitation to ${a.email} again`}
                            name={`Send again: the invitation to ${a.email}`}
                          >
                            Send again
                          </AccountAction>
                          <AccountAction intent="withdraw" id={a.id} busy={busy} danger form={`Withdraw the invitation to ${a.email}`}>
                            Withdraw
                          </AccountAction>
                        </>
                      ) : null}
                      {a.status === "active" ? (
                        <AccountAction intent="deactivate" id={a.id} busy={busy} danger form={`Deactivate ${a.email}`}>
                          Deactivate
                        </AccountAction>
                      ) : null}
                      {a.status === "deactivated" ? (
                        <AccountAction intent="reactivate" id={a.id} busy={busy} form={`Reactivate ${a.email}`}>
                          Reactivate
                        </AccountAction>
                      ) : null}
                    </div>
                  ) : (
                    <span className="text-sm text-muted">
                      {a.id === loaderData.me ? "Your account: see My account" : "Only an owner can change this account"}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </AdminPage>
  );
}

/** One account's one-button form (send again, withdraw, deactivate, reactivate): its own name, the button's name starting with its text. */
function AccountAction({
  intent,
  id,
  busy,
  danger = false,
  form,
  name = form,
  children,
}: {
  intent: string;
  id: string;
  busy: boolean;
  danger?: boolean;
  form: string;
  name?: string;
  children: string;
}) {
  return (
    <Form method="post" aria-label={form}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={danger ? btnDanger : btnSecondary} disabled={busy} aria-label={name}>
        {children}
      </button>
    </Form>
  );
}

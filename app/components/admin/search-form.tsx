/**
 * The search box of a dashboard list (Manage Team and Manage Articles,
 * Redirects, Subscribers, an event's registrations): a GET form on the
 * list's own address, a search landmark named by the screen, whose `q` box
 * carries the screen's own label; the screen's filters (`children`) between
 * the box and the button, and what it adds after the button (an export link).
 * It works without JavaScript; a screen that filters as you type passes
 * `onChange`.
 */
import { Search } from "lucide-react";
import type { ChangeEvent, ReactNode } from "react";
import { Form } from "react-router";
import { SEARCH_MAX_LENGTH } from "~/lib/list-search";
import { btnSecondary, inputClass, labelClass } from "./styles";

export function SearchForm(props: {
  /** The search's accessible name ("Search redirects"); none on a screen with one list. */
  name?: string;
  /** The box's label, in the screen's words ("Search addresses"). */
  label: ReactNode;
  q: string;
  /** The button's word: "Search" unless the screen says otherwise ("Show"). */
  button?: string;
  /** The screen's filters, beside the box. */
  children?: ReactNode;
  /** After the button: an export of what the search selects. */
  after?: ReactNode;
  /** The id of what the box is described by (the count of rows shown). */
  describedBy?: string;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <Form method="get" role="search" aria-label={props.name} className="mb-6 flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1 basis-56">
        <label htmlFor="q" className={labelClass}>
          {props.label}
        </label>
        <input
          id="q"
          type="search"
          name="q"
          defaultValue={props.q}
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          aria-describedby={props.describedBy}
          onChange={props.onChange}
          className={inputClass}
        />
      </div>
      {props.children}
      <button type="submit" className={btnSecondary}>
        <Search aria-hidden="true" className="size-4" /> {props.button ?? "Search"}
      </button>
      {props.after}
    </Form>
  );
}

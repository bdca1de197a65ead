/**
 * Client-side navigation for a long list of plain links with one click
 * handler on the list, instead of one <Link> per item: a <Link> costs a
 * router hook per item on every server render and hydration (on /team with
 * 200 members, most of the render). A plain click on a same-site link goes
 * through the router like a <Link>; new-tab, download and modified clicks,
 * and every click before hydration, stay ordinary links.
 */
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { isModifiedClick } from "./scrolling";

export function useDelegatedLinks() {
  const navigate = useNavigate();
  return useCallback(
    (event: React.MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || isModifiedClick(event)) return;
      const link = (event.target as Element).closest("a");
      if (!link || !event.currentTarget.contains(link)) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download") || link.origin !== window.location.origin) return;
      event.preventDefault();
      void navigate(link.pathname + link.search + link.hash);
    },
    [navigate],
  );
}

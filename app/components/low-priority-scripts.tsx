/**
 * React Router's <Scripts />, with its module preloads fetched at low
 * priority. The page is server-rendered, so the stylesheet, the fonts and
 * the first picture are what the visitor waits for; the hydration code
 * comes after them instead of competing with them. Chrome counts a
 * high-priority script as render-blocking, and so does Lighthouse's
 * simulation of the first paint.
 *
 * <Scripts /> takes no option for this; it is called here as a function (it
 * uses hooks, which run as this component's own) and its <link
 * rel="modulepreload"> elements are copied with fetchPriority="low". The
 * same code runs on the server and in the browser, so hydration matches.
 */
import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { Scripts } from "react-router";

type ElementProps = { rel?: string; children?: ReactNode };

function lowerModulePreloads(node: ReactNode): ReactNode {
  if (Array.isArray(node)) return node.map(lowerModulePreloads);
  if (!isValidElement<ElementProps>(node)) return node;
  if (node.type === "link" && node.props.rel === "modulepreload")
    return cloneElement(node as ReactElement<{ fetchPriority?: string }>, { fetchPriority: "low" });
  if (node.props.children === undefined) return node;
  return cloneElement(node, undefined, ...Children.toArray(lowerModulePreloads(node.props.children)));
}

export function LowPriorityScripts(props: { nonce?: string }) {
  return <>{lowerModulePreloads(Scripts(props))}</>;
}

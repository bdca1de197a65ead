/**
 * The home page's map (issue 43): the server renders a plan of the streets
 * drawn for this site, a link to the address on Google Maps, and a hidden
 * "Show the map" button. Nothing is asked of Google until the visitor presses
 * that button: this shows it, and its press puts Google's frame in place of
 * the picture (the frame's address and title are the holder's data-src and
 * data-title), then moves the focus to the frame.
 */
const FRAME_CLASS = "block h-[360px] w-full border-0 sm:h-[420px]";

function show(holder: HTMLElement, button: HTMLButtonElement) {
  const frame = document.createElement("iframe");
  frame.title = holder.dataset.title ?? "";
  frame.src = holder.dataset.src ?? "";
  frame.referrerPolicy = "no-referrer-when-downgrade";
  frame.width = "800";
  frame.height = "480";
  frame.className = FRAME_CLASS;
  holder.querySelector("[data-map-picture]")?.replaceWith(frame);
  button.remove();
  frame.focus();
}

export function enhanceMapFrames() {
  for (const holder of document.querySelectorAll<HTMLElement>("[data-map-frame]")) {
    const button = holder.querySelector<HTMLButtonElement>("[data-map-show]");
    if (!button) continue;
    button.hidden = false;
    button.addEventListener("click", () => show(holder, button), { once: true });
  }
}

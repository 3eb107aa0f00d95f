import { useSyncExternalStore } from "react";

/** Below antd's md breakpoint (768 px): a phone, or a very narrow window. */
const QUERY = "(max-width: 767.98px)";

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const list = window.matchMedia(QUERY);
  list.addEventListener("change", onChange);
  return () => list.removeEventListener("change", onChange);
}

const snapshot = () => typeof window.matchMedia === "function" && window.matchMedia(QUERY).matches;

/**
 * Whether the screen is narrower than the md breakpoint: the layouts then put the menu in a drawer and tighten
 * their margins. A max-width query, so a browser that cannot tell (no matchMedia) gets the wide layout.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}

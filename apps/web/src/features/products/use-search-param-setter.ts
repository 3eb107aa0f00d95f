import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";

/**
 * Merges values into the URL's query string (empty = removed). It starts from the browser's current address,
 * not from the last rendered one: react-router applies navigations in a transition, so two quick changes
 * (a picker, then a search) would otherwise each start from the same old query and the second would undo
 * the first.
 */
export function useSearchParamSetter() {
  const [, setSearch] = useSearchParams();
  return useCallback(
    (next: Record<string, string | undefined>, opts: { reset?: boolean } = {}) => {
      const out = new URLSearchParams(opts.reset ? "" : window.location.search);
      for (const [key, value] of Object.entries(next)) {
        if (value === undefined || value === "") out.delete(key);
        else out.set(key, value);
      }
      setSearch(out);
    },
    [setSearch],
  );
}

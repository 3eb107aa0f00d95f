import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";

/**
 * The browser's current query string, not the last rendered one: react-router applies navigations in a
 * transition, so two quick changes (a picker, then a search) would otherwise both start from the same old
 * query and the second would undo the first.
 */
function currentSearch(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

/** Merges values into the URL's query string (empty = removed), or replaces it with `reset`. */
export function useSearchParamSetter() {
  const [, setSearch] = useSearchParams();
  return useCallback(
    (next: Record<string, string | undefined>, opts: { reset?: boolean } = {}) => {
      const out = opts.reset ? new URLSearchParams() : currentSearch();
      for (const [key, value] of Object.entries(next)) {
        if (value === undefined || value === "") out.delete(key);
        else out.set(key, value);
      }
      setSearch(out);
    },
    [setSearch],
  );
}

/** Default page size of every server-side paged list. */
export const PAGE_SIZE = 20;

export type FilterValues = Record<string, string | undefined>;

export interface UrlFilters<F extends FilterValues> {
  /** The filters as the URL holds them (strings; absent = undefined). */
  filters: F;
  page: number;
  pageSize: number;
  /** Merges filters into the URL and goes back to page 1 (a new search starts at its first page). */
  setFilters: (next: Partial<F>) => void;
  setPage: (page: number, pageSize?: number) => void;
  reset: () => void;
  /** `{ ...filters, page, pageSize }` without empty values: the params of the list call. */
  params: Record<string, string | number>;
}

/**
 * A list's filters and page kept in the URL's query string, so a view can be shared, reloaded and
 * navigated back to. `keys` names the filters the list reads; others in the URL are left alone.
 */
export function useUrlFilters<F extends FilterValues>(keys: readonly (keyof F & string)[]): UrlFilters<F> {
  const [search, setSearch] = useSearchParams();
  const keyList = keys.join(",");

  const filters = useMemo(() => {
    const out: FilterValues = {};
    for (const key of keyList.split(",")) {
      const value = search.get(key);
      if (value !== null && value !== "") out[key] = value;
    }
    return out as F;
  }, [search, keyList]);
  const page = Math.max(1, Number(search.get("page")) || 1);
  const pageSize = Math.min(100, Math.max(1, Number(search.get("pageSize")) || PAGE_SIZE));

  const setFilters = useCallback(
    (next: Partial<F>) =>
      setSearch(() => {
        const out = currentSearch();
        for (const [key, value] of Object.entries(next)) {
          if (value === undefined || value === null || value === "") out.delete(key);
          else out.set(key, String(value));
        }
        out.delete("page");
        return out;
      }),
    [setSearch],
  );
  const setPage = useCallback(
    (nextPage: number, nextSize?: number) =>
      setSearch(() => {
        const out = currentSearch();
        if (nextPage > 1) out.set("page", String(nextPage));
        else out.delete("page");
        if (nextSize !== undefined && nextSize !== PAGE_SIZE) out.set("pageSize", String(nextSize));
        else if (nextSize !== undefined) out.delete("pageSize");
        return out;
      }),
    [setSearch],
  );
  const reset = useCallback(
    () =>
      setSearch(() => {
        const out = currentSearch();
        for (const key of keyList.split(",")) out.delete(key);
        out.delete("page");
        return out;
      }),
    [setSearch, keyList],
  );

  const params = useMemo(() => {
    const out: Record<string, string | number> = { page, pageSize };
    for (const [key, value] of Object.entries(filters)) if (value !== undefined) out[key] = value;
    return out;
  }, [filters, page, pageSize]);

  return { filters, page, pageSize, setFilters, setPage, reset, params };
}

import { type ChangeEvent, useCallback, useEffect, useState } from "react";
import { type FilterValues, type UrlFilters, useUrlFilters } from "./use-url-filters";

/** What a list's search box needs: its text while typed, and the search that puts it in the URL. */
export interface SearchBoxState {
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** Puts the trimmed text in the URL (empty: removes the filter) and goes back to page 1. */
  onSearch: (text: string) => void;
}

export interface ListFilters<F extends FilterValues> extends UrlFilters<F> {
  search: SearchBoxState;
  /** Clears the list's filters from the URL and the search box's text (also text typed but not searched). */
  reset: () => void;
}

export interface ListFilterOptions<F extends FilterValues> {
  /** The URL filter the search box sets (default `keyword`). */
  searchKey?: keyof F & string;
  /** Cleans what is typed (e.g. digits only); applied to every change of the box. */
  clean?: (text: string) => string;
}

/**
 * A server-paged list's filters and page in the URL (`useUrlFilters`) plus its search box: the box shows what is
 * typed, follows the URL (back button, a link, reset), and searching puts its text in the URL. Used with
 * `components/ListPage` (`ListToolbar`, `SearchBox`, `ResetButton`, `PagedTable`).
 */
export function useListFilters<F extends FilterValues>(
  keys: readonly (keyof F & string)[],
  { searchKey = "keyword" as keyof F & string, clean }: ListFilterOptions<F> = {},
): ListFilters<F> {
  const url = useUrlFilters<F>(keys);
  const applied = url.filters[searchKey] ?? "";
  const [text, setText] = useState(applied);
  useEffect(() => setText(applied), [applied]);
  const { setFilters, reset: resetUrl } = url;

  const onSearch = useCallback(
    (value: string) => setFilters({ [searchKey]: value.trim() || undefined } as Partial<F>),
    [setFilters, searchKey],
  );
  const reset = useCallback(() => {
    setText("");
    resetUrl();
  }, [resetUrl]);

  return {
    ...url,
    reset,
    search: {
      value: text,
      onChange: (event) => setText(clean ? clean(event.target.value) : event.target.value),
      onSearch,
    },
  };
}

import type { UseQueryResult } from "@tanstack/react-query";
import { Skeleton } from "antd";
import type { ReactNode } from "react";
import { LoadError } from "../../../components/LoadError";

/** Loading skeleton, or an error with a retry, or the children with the loaded data. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Skeleton active data-testid="developer-loading" />;
  if (query.isError) {
    return <LoadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  return <>{children(query.data)}</>;
}

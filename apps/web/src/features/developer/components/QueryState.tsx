import type { UseQueryResult } from "@tanstack/react-query";
import { Button, Result, Skeleton } from "antd";
import type { ReactNode } from "react";
import { errorText } from "../../../lib/error-text";
import { useT } from "../../../lib/i18n";

/** Loading skeleton, or an error with a retry, or the children with the loaded data. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const t = useT();
  if (query.isPending) return <Skeleton active data-testid="developer-loading" />;
  if (query.isError) {
    return (
      <Result
        status="warning"
        title={t("error.loadFailed")}
        subTitle={errorText(query.error, t)}
        extra={
          <Button onClick={() => void query.refetch()} loading={query.isFetching}>
            {t("common.retry")}
          </Button>
        }
      />
    );
  }
  return <>{children(query.data)}</>;
}

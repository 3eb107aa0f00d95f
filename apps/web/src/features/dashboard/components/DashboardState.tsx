import { ReloadOutlined } from "@ant-design/icons";
import { Button, Skeleton } from "antd";
import type { ReactNode } from "react";
import { LoadError } from "../../../components/LoadError";

interface DashboardQuery<T> {
  data?: T | undefined;
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** A dashboard's body: a skeleton (marked `loadingTestId`) while it first loads, the error with a retry, the figures. */
export function DashboardState<T>({
  query,
  loadingTestId,
  children,
}: {
  query: DashboardQuery<T>;
  loadingTestId: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton active paragraph={{ rows: 8 }} data-testid={loadingTestId} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return query.data === undefined ? null : children(query.data);
}

/** The refresh button of a dashboard's header: spins while a refresh (not the first load) runs. */
export function RefreshButton({
  query,
  label,
  onRefresh = () => void query.refetch(),
}: {
  query: Pick<DashboardQuery<unknown>, "isPending" | "isFetching" | "refetch">;
  label: string;
  onRefresh?: () => void;
}) {
  return (
    <Button
      icon={<ReloadOutlined />}
      aria-label={label}
      loading={query.isFetching && !query.isPending}
      onClick={onRefresh}
    />
  );
}

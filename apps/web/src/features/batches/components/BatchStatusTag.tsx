import { BatchStatus } from "@switchboard/contracts/codes";
import { Space, Tag } from "antd";
import { messages } from "../messages";
import { statusColor, statusKey } from "../status";

/**
 * A batch status with the spec's name (zh/en). A file batch whose numbers are still being read has not been
 * judged yet (status 11 stands for "not decided" until then): it shows "importing" with the file's progress
 * (`progress`, the row's whole percent), not "under review". A batch that ended while its file was read says
 * so beside its status. A screening batch (task type 1: it checks numbers, it sends nothing) is marked as one.
 */
export function BatchStatusTag({
  status,
  ingesting = false,
  progress,
  taskType,
}: {
  status: number;
  ingesting?: boolean;
  /** While ingesting: the share of the file read, whole percent. */
  progress?: number;
  taskType?: number;
}) {
  const t = messages.useT();
  const key = statusKey(status);
  const importing = ingesting && status === BatchStatus.UNDER_REVIEW;
  const name = importing
    ? progress === undefined
      ? t("status.importing")
      : t("status.importingPercent", { percent: Math.max(0, Math.min(100, Math.round(progress))) })
    : key
      ? t(key)
      : t("status.unknown", { code: status });
  return (
    <Space size={4} wrap>
      <Tag
        color={importing ? "processing" : statusColor(status)}
        data-testid="batch-status"
        data-status={status}
        data-importing={importing ? "true" : undefined}
      >
        {name}
      </Tag>
      {taskType === 1 && (
        <Tag color="purple" data-testid="batch-screening-tag">
          {t("status.screening")}
        </Tag>
      )}
      {ingesting && !importing && (
        <Tag color="processing" data-testid="batch-ingesting">
          {t("status.ingesting")}
        </Tag>
      )}
    </Space>
  );
}

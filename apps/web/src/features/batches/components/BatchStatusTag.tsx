import { Space, Tag } from "antd";
import { messages } from "../messages";
import { statusColor, statusKey } from "../status";

/**
 * A batch status with the spec's name (zh/en); a file batch still being read says so beside it, and a screening
 * batch (task type 1: it checks numbers, it sends nothing) is marked as one.
 */
export function BatchStatusTag({
  status,
  ingesting = false,
  taskType,
}: {
  status: number;
  ingesting?: boolean;
  taskType?: number;
}) {
  const t = messages.useT();
  const key = statusKey(status);
  return (
    <Space size={4} wrap>
      <Tag color={statusColor(status)} data-testid="batch-status" data-status={status}>
        {key ? t(key) : t("status.unknown", { code: status })}
      </Tag>
      {taskType === 1 && (
        <Tag color="purple" data-testid="batch-screening-tag">
          {t("status.screening")}
        </Tag>
      )}
      {ingesting && (
        <Tag color="processing" data-testid="batch-ingesting">
          {t("status.ingesting")}
        </Tag>
      )}
    </Space>
  );
}

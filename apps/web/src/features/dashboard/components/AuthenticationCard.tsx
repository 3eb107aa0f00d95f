import type { CustomerDashboard } from "@switchboard/contracts";
import { AuthStatus } from "@switchboard/contracts/codes";
import { Button, Card, Space, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { messages } from "../messages";

const COLORS: Record<number, string> = { 0: "default", 1: "processing", 2: "success", 3: "error" };

/** The customer's authentication status, with the way forward when it is missing or was rejected. */
export function AuthenticationCard({ data, onSubmit }: { data: CustomerDashboard; onSubmit: () => void }) {
  const t = messages.useT();
  const status = data.authStatus;
  const key = ([0, 1, 2, 3].includes(status) ? status : 0) as 0 | 1 | 2 | 3;
  const canSubmit = status === AuthStatus.NOT_AUTHENTICATED || status === AuthStatus.REJECTED;
  const exemptUntil =
    data.authExemptUntil && dayjs(data.authExemptUntil).isAfter(dayjs()) ? data.authExemptUntil : null;
  return (
    <Card size="small" style={{ height: "100%" }}>
      <Typography.Text type="secondary">{t("auth.title")}</Typography.Text>
      <div style={{ margin: "6px 0" }}>
        <Tag color={COLORS[key]} data-testid="dashboard-auth-status" style={{ fontSize: 14, padding: "2px 8px" }}>
          {t(`auth.status.${key}`)}
        </Tag>
        {data.authRequirement === 1 && <Tag>{t("auth.exempt")}</Tag>}
      </div>
      <Space orientation="vertical" size={4}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {key === 3 ? t("auth.hint.3", { reason: data.authRejectReason ?? "-" }) : t(`auth.hint.${key}`)}
        </Typography.Text>
        {exemptUntil && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t("auth.exemptUntil", { date: dayjs(exemptUntil).format("YYYY-MM-DD HH:mm") })}
          </Typography.Text>
        )}
        {canSubmit && (
          <Button type="primary" size="small" onClick={onSubmit} data-testid="dashboard-auth-submit">
            {key === 3 ? t("auth.resubmit") : t("auth.submit")}
          </Button>
        )}
      </Space>
    </Card>
  );
}

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Form, Input, Select, Tag, Typography } from "antd";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { customerKeys, type LoginLogRow, listLoginLogs } from "../api";
import { FilterForm, ListView } from "../components/ListView";
import { codeLabel, formatTime } from "../components/labels";
import { messages } from "../messages";

type Filters = { username?: string; success?: string; ip?: string; from?: string; to?: string };

/** customer/log (admins): every sign-in attempt of the tenant, with why failures failed. */
export default function LoginLogPage() {
  const t = messages.useT();
  const filters = useUrlFilters<Filters>(["username", "success", "ip", "from", "to"]);
  const query = useQuery({
    queryKey: customerKeys.loginLog(filters.params),
    queryFn: ({ signal }) => listLoginLogs(filters.params, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <PageContainer>
      <FilterForm
        filters={filters.filters}
        onSearch={filters.setFilters}
        onReset={filters.reset}
        withRange
        testId="login-log-filters"
      >
        <Form.Item name="username" label={t("log.username")}>
          <Input allowClear style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="success" label={t("log.result")}>
          <Select
            allowClear
            style={{ width: 110 }}
            placeholder={t("common.all")}
            options={[
              { value: "1", label: t("log.success") },
              { value: "0", label: t("log.failure") },
            ]}
          />
        </Form.Item>
        <Form.Item name="ip" label={t("log.ip")}>
          <Input allowClear style={{ width: 150 }} />
        </Form.Item>
      </FilterForm>
      <ListView<LoginLogRow>
        query={query}
        filters={filters}
        testId="login-log-table"
        rowKey={(r) => r.id}
        columns={[
          { title: t("log.time"), dataIndex: "createdAt", render: formatTime },
          { title: t("log.username"), dataIndex: "username" },
          { title: t("log.area"), dataIndex: "area", render: (v: string) => codeLabel(t, "area", v) },
          { title: t("log.ip"), dataIndex: "ip" },
          {
            title: t("log.result"),
            dataIndex: "success",
            render: (ok: boolean) => <Tag color={ok ? "green" : "red"}>{t(ok ? "log.success" : "log.failure")}</Tag>,
          },
          {
            title: t("log.reason"),
            dataIndex: "reason",
            render: (v: string | null) => (v ? codeLabel(t, "reason", v) : "-"),
          },
          {
            title: t("log.userAgent"),
            dataIndex: "userAgent",
            render: (v: string | null) => (
              <Typography.Text type="secondary" ellipsis={{ tooltip: v }} style={{ maxWidth: 280 }}>
                {v ?? "-"}
              </Typography.Text>
            ),
          },
        ]}
      />
    </PageContainer>
  );
}

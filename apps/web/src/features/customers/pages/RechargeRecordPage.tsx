import { UserType } from "@switchboard/contracts/codes";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Form, Input, Space } from "antd";
import { useState } from "react";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney } from "../../../lib/format";
import { useCurrentRoute } from "../../../routes/route-context";
import { type BalanceLogRow, customerKeys, listRecharge } from "../api";
import { BalanceLogModal } from "../components/BalanceLogModal";
import { FilterForm, ListView } from "../components/ListView";
import { codeLabel, formatTime, SignedMoney } from "../components/labels";
import { RechargeModal } from "../components/RechargeModal";
import { useStaffRole } from "../components/roles";
import { UserPicker } from "../components/UserPicker";
import { messages } from "../messages";

type Filters = { keyword?: string; userId?: string; agentId?: string; from?: string; to?: string };

/**
 * customer/recharge/{add|deduct} (route meta `type`): credits by staff (recharge, gift, confirmed remittance)
 * or deducts, with the amount total of every matching row; the recharge / deduct modal and a customer's
 * balance log.
 */
export default function RechargeRecordPage() {
  const t = messages.useT();
  const kind = useCurrentRoute().node.meta?.type === "deduct" ? "deduct" : "add";
  const { isAdmin } = useStaffRole();
  const filters = useUrlFilters<Filters>(["keyword", "userId", "agentId", "from", "to"]);
  const params = { ...filters.params, type: kind };
  const query = useQuery({
    queryKey: customerKeys.recharge(params),
    queryFn: ({ signal }) => listRecharge(params, { signal }),
    placeholderData: keepPreviousData,
  });
  const [modalOpen, setModalOpen] = useState(false);
  const [logOf, setLogOf] = useState<{ id: number; user: string } | null>(null);
  const action = kind === "add" ? "recharge" : "deduct";

  return (
    <PageContainer
      extra={
        <Button
          type="primary"
          danger={kind === "deduct"}
          onClick={() => setModalOpen(true)}
          data-testid={`open-${action}`}
        >
          {t(kind === "add" ? "list.recharge" : "list.deduct")}
        </Button>
      }
    >
      <FilterForm
        filters={filters.filters}
        onSearch={filters.setFilters}
        onReset={filters.reset}
        withRange
        testId="recharge-filters"
      >
        <Form.Item name="keyword" label={t("common.keyword")}>
          <Input allowClear style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="userId" label={t("rec.user")}>
          <UserPicker allowedTypes={[UserType.AGENT, UserType.USER]} />
        </Form.Item>
        {isAdmin && (
          <Form.Item name="agentId" label={t("common.agent")}>
            <UserPicker type={UserType.AGENT} />
          </Form.Item>
        )}
      </FilterForm>
      <ListView<BalanceLogRow>
        query={query}
        filters={filters}
        testId="recharge-table"
        rowKey={(r) => r.id}
        columns={[
          { title: t("rec.id"), dataIndex: "id" },
          { title: t("rec.user"), dataIndex: "user" },
          { title: t("rec.type"), dataIndex: "type", render: (v: number) => codeLabel(t, "logType", v) },
          {
            title: t("rec.amount"),
            dataIndex: "amount",
            align: "right",
            render: (v: string) => <SignedMoney value={v} />,
          },
          {
            title: t("rec.balanceAfter"),
            dataIndex: "balanceAfter",
            align: "right",
            render: (v: string) => formatMoney(v),
          },
          { title: t("rec.operator"), dataIndex: "operator", render: (v: string | null) => v ?? t("rec.platform") },
          { title: t("rec.remark"), dataIndex: "remark", render: (v: string | null) => v ?? "-" },
          { title: t("rec.time"), dataIndex: "createdAt", render: formatTime },
          {
            title: t("common.actions"),
            key: "actions",
            render: (_, row) => (
              <Space>
                <Button size="small" type="link" onClick={() => setLogOf({ id: row.userId, user: row.user })}>
                  {t("list.balanceLog")}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <RechargeModal action={action} open={modalOpen} onClose={() => setModalOpen(false)} />
      <BalanceLogModal user={logOf} onClose={() => setLogOf(null)} />
    </PageContainer>
  );
}

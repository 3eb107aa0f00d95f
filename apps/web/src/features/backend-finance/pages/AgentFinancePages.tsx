import { BalanceLogType } from "@switchboard/contracts/codes";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Form, Select, Space, Statistic } from "antd";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney } from "../../../lib/format";
import { userInfoQueryOptions } from "../../auth/api/get-user-info";
import { useSession } from "../../auth/context/session-context";
import { type BalanceLogRow, customerKeys, listBalanceLog } from "../../customers/api";
import { ConsumeList } from "../../customers/components/ConsumeList";
import { FilterForm, ListView } from "../../customers/components/ListView";
import { codeLabel, formatTime, SignedMoney } from "../../customers/components/labels";
import { messages as customerMessages } from "../../customers/messages";
import { messages } from "../messages";

/** The agent's own balance (GET /user/info), refreshed when a finance page opens. */
function MyBalance() {
  const t = messages.useT();
  const info = useQuery({ ...userInfoQueryOptions(), refetchOnMount: "always" });
  return (
    <Space align="end" size="large" style={{ marginBottom: 16 }}>
      <Statistic
        title={t("balance.title")}
        value={formatMoney(info.data?.balance, { currency: info.data?.currency })}
        loading={info.isPending}
        data-testid="agent-balance"
      />
      <Button size="small" onClick={() => info.refetch()} loading={info.isFetching}>
        {t("balance.refresh")}
      </Button>
    </Space>
  );
}

type Filters = { type?: string; from?: string; to?: string };

const CREDIT_TYPES = [BalanceLogType.RECHARGE, BalanceLogType.GIFT, BalanceLogType.REMITTANCE];

/**
 * The agent's own balance movements of one kind (GET /user/balance/log?userId=<self>&type=): both sides of the
 * reseller model, since the recharge list leaves the agent's own opposite rows out (docs/finance.md).
 */
function OwnMovements({ kind }: { kind: "recharge" | "deduct" }) {
  const t = messages.useT();
  const ct = customerMessages.useT();
  const { user } = useSession();
  const filters = useUrlFilters<Filters>(["type", "from", "to"]);
  const type = kind === "deduct" ? BalanceLogType.DEDUCT : Number(filters.filters.type ?? BalanceLogType.RECHARGE);
  const params = { ...filters.params, type, userId: Number(user.id) };
  const query = useQuery({
    queryKey: customerKeys.balanceLog(params),
    queryFn: ({ signal }) => listBalanceLog(params, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <PageContainer>
      <MyBalance />
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={t(kind === "deduct" ? "deduct.hint" : "recharge.hint")}
      />
      <FilterForm filters={filters.filters} onSearch={filters.setFilters} onReset={filters.reset} withRange>
        {kind === "recharge" && (
          <Form.Item name="type" label={t("type.label")}>
            <Select
              style={{ width: 120 }}
              placeholder={codeLabel(ct, "logType", BalanceLogType.RECHARGE)}
              options={CREDIT_TYPES.map((v) => ({ value: String(v), label: codeLabel(ct, "logType", v) }))}
            />
          </Form.Item>
        )}
      </FilterForm>
      <ListView<BalanceLogRow>
        query={query}
        filters={filters}
        testId={`agent-${kind}-table`}
        rowKey={(r) => r.id}
        columns={[
          { title: ct("rec.time"), dataIndex: "createdAt", render: formatTime },
          { title: ct("rec.type"), dataIndex: "type", render: (v: number) => codeLabel(ct, "logType", v) },
          {
            title: ct("rec.amount"),
            dataIndex: "amount",
            align: "right",
            render: (v: string) => <SignedMoney value={v} />,
          },
          {
            title: ct("rec.balanceAfter"),
            dataIndex: "balanceAfter",
            align: "right",
            render: (v: string) => formatMoney(v),
          },
          { title: ct("rec.operator"), dataIndex: "operator", render: (v: string | null) => v ?? ct("rec.platform") },
          { title: ct("rec.remark"), dataIndex: "remark", render: (v: string | null) => v ?? "-" },
        ]}
      />
    </PageContainer>
  );
}

export function AgentRechargePage() {
  return <OwnMovements kind="recharge" />;
}

export function AgentDeductPage() {
  return <OwnMovements kind="deduct" />;
}

/** finance/consume: what the agent's customers' batches cost (the agent itself sends nothing). */
export function AgentConsumePage() {
  const t = messages.useT();
  return (
    <PageContainer>
      <MyBalance />
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("consume.hint")} />
      <ConsumeList showAgentFilter={false} />
    </PageContainer>
  );
}

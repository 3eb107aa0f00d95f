import { BalanceLogType } from "@switchboard/contracts/codes";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Modal, Select, Space } from "antd";
import { useState } from "react";
import { formatMoney } from "../../../lib/format";
import { type BalanceLogRow, customerKeys, listBalanceLog } from "../api";
import { messages } from "../messages";
import { ListView } from "./ListView";
import { codeLabel, formatTime, SignedMoney } from "./labels";

const PAGE_SIZE = 10;

/** One account's balance log (GET /user/balance/log?userId=): every movement with the balance after it. */
export function BalanceLogModal({ user, onClose }: { user: { id: number; user: string } | null; onClose: () => void }) {
  const t = messages.useT();
  const [page, setPageState] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [type, setType] = useState<number | undefined>(undefined);
  const params = { userId: user?.id ?? 0, type, page, pageSize };
  const query = useQuery({
    queryKey: customerKeys.balanceLog(params),
    queryFn: ({ signal }) => listBalanceLog(params, { signal }),
    enabled: user !== null,
    placeholderData: keepPreviousData,
  });

  return (
    <Modal
      open={user !== null}
      title={t("balanceLog.title", { user: user?.user ?? "" })}
      onCancel={onClose}
      footer={null}
      width={960}
      destroyOnHidden
      data-testid="balance-log-modal"
    >
      <Space style={{ marginBottom: 12 }}>
        <Select<number>
          allowClear
          placeholder={t("rec.type")}
          style={{ width: 160 }}
          value={type}
          onChange={(v) => {
            setType(v);
            setPageState(1);
          }}
          options={Object.values(BalanceLogType).map((v) => ({ value: v, label: codeLabel(t, "logType", v) }))}
        />
      </Space>
      <ListView<BalanceLogRow>
        query={query}
        testId="balance-log"
        rowKey={(r) => r.id}
        filters={{
          page,
          pageSize,
          setPage: (p, size) => {
            setPageState(p);
            if (size) setPageSize(size);
          },
        }}
        columns={[
          { title: t("rec.time"), dataIndex: "createdAt", render: formatTime },
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
          { title: t("rec.batch"), dataIndex: "batchId", render: (v: string | null) => v ?? "-" },
          { title: t("rec.remark"), dataIndex: "remark", render: (v: string | null) => v ?? "-" },
        ]}
      />
    </Modal>
  );
}

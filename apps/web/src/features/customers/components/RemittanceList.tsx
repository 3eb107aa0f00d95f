import { RemittanceStatus, UserType } from "@switchboard/contracts/codes";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Modal, Popconfirm, Select, Space } from "antd";
import { useState } from "react";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { errorText } from "../../../lib/error-text";
import { formatMoney } from "../../../lib/format";
import { authKeys } from "../../auth/api/get-user-info";
import { confirmRemittance, customerKeys, listRemittances, type RemittanceRow, rejectRemittance } from "../api";
import { messages } from "../messages";
import { FilterForm, ListView } from "./ListView";
import { codeLabel, formatTime, RemitStatusTag } from "./labels";
import { ProtectedFile } from "./ProtectedFile";
import { ReasonModal } from "./ReasonModal";
import { useStaffRole } from "./roles";
import { UserPicker } from "./UserPicker";

type Filters = { status?: string; userId?: string; agentId?: string; from?: string; to?: string };

/**
 * Remittances (GET /finance/remit/list): customers' declared bank transfers, confirmed (credits the customer;
 * an agent's confirmation draws from its own balance) or rejected with a reason; the proof is previewed.
 * Used by customer/remit and, for admins, product/finance/remit.
 */
export function RemittanceList() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const { isAdmin } = useStaffRole();
  const filters = useUrlFilters<Filters>(["status", "userId", "agentId", "from", "to"]);
  const query = useQuery({
    queryKey: customerKeys.remit(filters.params),
    queryFn: ({ signal }) => listRemittances(filters.params, { signal }),
    placeholderData: keepPreviousData,
  });
  const [proofOf, setProofOf] = useState<RemittanceRow | null>(null);
  const [rejecting, setRejecting] = useState<RemittanceRow | null>(null);
  const [rejectError, setRejectError] = useState<string | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: customerKeys.all });
    void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
  };
  const confirm = useMutation({
    mutationFn: (row: RemittanceRow) => confirmRemittance(row.id),
    onSuccess: () => {
      message.success(t("remit.confirmed"));
      refresh();
    },
    onError: (error) => {
      showError(error);
      refresh();
    },
  });
  const reject = useMutation({
    mutationFn: ({ row, reason }: { row: RemittanceRow; reason: string }) => rejectRemittance(row.id, reason),
    onSuccess: () => {
      message.success(t("remit.rejected"));
      setRejecting(null);
      refresh();
    },
    onError: (error) => setRejectError(errorText(error, t.shell)),
  });

  return (
    <>
      <FilterForm
        filters={filters.filters}
        onSearch={filters.setFilters}
        onReset={filters.reset}
        withRange
        testId="remit-filters"
      >
        <Form.Item name="status" label={t("remit.status")}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t("common.all")}
            options={Object.values(RemittanceStatus).map((v) => ({
              value: String(v),
              label: codeLabel(t, "remitStatus", v),
            }))}
          />
        </Form.Item>
        <Form.Item name="userId" label={t("common.customer")}>
          <UserPicker type={UserType.USER} />
        </Form.Item>
        {isAdmin && (
          <Form.Item name="agentId" label={t("common.agent")}>
            <UserPicker type={UserType.AGENT} />
          </Form.Item>
        )}
      </FilterForm>
      <ListView<RemittanceRow>
        query={query}
        filters={filters}
        testId="remit-table"
        rowKey={(r) => r.id}
        columns={[
          { title: t("rec.id"), dataIndex: "id" },
          { title: t("rec.user"), dataIndex: "user" },
          { title: t("remit.amount"), dataIndex: "amount", align: "right", render: (v: string) => formatMoney(v) },
          { title: t("remit.payer"), dataIndex: "payer" },
          { title: t("remit.reference"), dataIndex: "reference", render: (v: string | null) => v ?? "-" },
          { title: t("rec.remark"), dataIndex: "remark", render: (v: string | null) => v ?? "-" },
          {
            title: t("remit.proof"),
            dataIndex: "hasProof",
            render: (has: boolean, row) =>
              has ? (
                <Button size="small" type="link" onClick={() => setProofOf(row)} data-testid={`remit-proof-${row.id}`}>
                  {t("common.view")}
                </Button>
              ) : (
                t("remit.noProof")
              ),
          },
          { title: t("remit.status"), dataIndex: "status", render: (v: number) => <RemitStatusTag status={v} /> },
          { title: t("remit.reviewer"), dataIndex: "reviewer", render: (v: string | null) => v ?? "-" },
          { title: t("remit.reason"), dataIndex: "reason", render: (v: string | null) => v ?? "-" },
          { title: t("remit.reviewedAt"), dataIndex: "reviewedAt", render: formatTime },
          { title: t("common.createdAt"), dataIndex: "createdAt", render: formatTime },
          {
            title: t("common.actions"),
            key: "actions",
            fixed: "right",
            render: (_, row) =>
              row.status === RemittanceStatus.PENDING ? (
                <Space>
                  <Popconfirm
                    title={t("remit.confirmConfirm", { user: row.user, amount: formatMoney(row.amount) })}
                    onConfirm={() => confirm.mutateAsync(row).catch(() => undefined)}
                  >
                    <Button size="small" type="primary" data-testid={`remit-confirm-${row.id}`}>
                      {t("remit.confirm")}
                    </Button>
                  </Popconfirm>
                  <Button
                    size="small"
                    danger
                    onClick={() => {
                      setRejectError(null);
                      setRejecting(row);
                    }}
                    data-testid={`remit-reject-${row.id}`}
                  >
                    {t("remit.reject")}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={proofOf !== null}
        title={t("remit.proofTitle", { user: proofOf?.user ?? "" })}
        footer={null}
        width={720}
        onCancel={() => setProofOf(null)}
        destroyOnHidden
      >
        {proofOf && (
          <ProtectedFile
            path="/finance/remit/proof"
            params={{ id: proofOf.id }}
            fileName={`remittance-${proofOf.id}`}
            testId="remit-proof"
          />
        )}
      </Modal>
      <ReasonModal
        open={rejecting !== null}
        title={t("remit.rejectTitle", { user: rejecting?.user ?? "", amount: formatMoney(rejecting?.amount) })}
        requiredMessage={t("remit.reasonRequired")}
        loading={reject.isPending}
        error={rejectError}
        onSubmit={(reason) => rejecting && reject.mutate({ row: rejecting, reason })}
        onClose={() => setRejecting(null)}
        testId="remit-reject-modal"
      />
    </>
  );
}

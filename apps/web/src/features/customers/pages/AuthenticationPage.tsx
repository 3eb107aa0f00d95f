import { AuthStatus } from "@switchboard/contracts/codes";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Descriptions, Drawer, Form, Input, Popconfirm, Select, Space, Typography } from "antd";
import { useState } from "react";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { errorText } from "../../../lib/error-text";
import {
  type AuthenticationRow,
  customerKeys,
  listAuthentications,
  passAuthentication,
  rejectAuthentication,
} from "../api";
import { FilterForm, ListView } from "../components/ListView";
import { AuthStatusTag, codeLabel, formatTime } from "../components/labels";
import { ProtectedFile } from "../components/ProtectedFile";
import { ReasonModal } from "../components/ReasonModal";
import { messages } from "../messages";

type Filters = { status?: string; keyword?: string; from?: string; to?: string };

const REVIEW_STATUSES = [AuthStatus.AUTHENTICATING, AuthStatus.AUTHENTICATED, AuthStatus.REJECTED];

/** customer/authentication: customers' identity submissions, reviewed in a drawer with their documents. */
export default function AuthenticationPage() {
  const t = messages.useT();
  const filters = useUrlFilters<Filters>(["status", "keyword", "from", "to"]);
  const query = useQuery({
    queryKey: customerKeys.authentication(filters.params),
    queryFn: ({ signal }) => listAuthentications(filters.params, { signal }),
    placeholderData: keepPreviousData,
  });
  const [reviewing, setReviewing] = useState<AuthenticationRow | null>(null);

  return (
    <PageContainer>
      <FilterForm
        filters={filters.filters}
        onSearch={filters.setFilters}
        onReset={filters.reset}
        withRange
        testId="authn-filters"
      >
        <Form.Item name="status" label={t("authn.status")}>
          <Select
            allowClear
            style={{ width: 120 }}
            placeholder={t("common.all")}
            options={REVIEW_STATUSES.map((v) => ({ value: String(v), label: codeLabel(t, "auth", v) }))}
          />
        </Form.Item>
        <Form.Item name="keyword" label={t("common.keyword")}>
          <Input allowClear style={{ width: 180 }} />
        </Form.Item>
      </FilterForm>
      <ListView<AuthenticationRow>
        query={query}
        filters={filters}
        testId="authn-table"
        rowKey={(r) => r.id}
        columns={[
          { title: t("rec.user"), dataIndex: "user" },
          {
            title: t("authn.subjectType"),
            dataIndex: "subjectType",
            render: (v: number) => codeLabel(t, "subject", v),
          },
          { title: t("authn.name"), dataIndex: "name" },
          { title: t("authn.idNumber"), dataIndex: "idNumber" },
          { title: t("authn.contactName"), dataIndex: "contactName", render: (v: string | null) => v ?? "-" },
          { title: t("authn.contactPhone"), dataIndex: "contactPhone", render: (v: string | null) => v ?? "-" },
          {
            title: t("authn.documents"),
            dataIndex: "documentCount",
            render: (v: number) => t("authn.documentCount", { count: v }),
          },
          { title: t("authn.status"), dataIndex: "status", render: (v: number) => <AuthStatusTag status={v} /> },
          { title: t("authn.reason"), dataIndex: "reason", render: (v: string | null) => v ?? "-" },
          { title: t("common.createdAt"), dataIndex: "createdAt", render: formatTime },
          {
            title: t("common.actions"),
            key: "actions",
            fixed: "right",
            render: (_, row) => (
              <Button
                size="small"
                type={row.status === AuthStatus.AUTHENTICATING ? "primary" : "link"}
                onClick={() => setReviewing(row)}
                data-testid={`authn-review-${row.id}`}
              >
                {row.status === AuthStatus.AUTHENTICATING ? t("authn.review") : t("common.view")}
              </Button>
            ),
          },
        ]}
      />
      <ReviewDrawer row={reviewing} onClose={() => setReviewing(null)} />
    </PageContainer>
  );
}

/** One submission: its fields, every document (images inline, PDFs embedded), and pass / reject. */
function ReviewDrawer({ row, onClose }: { row: AuthenticationRow | null; onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [rejectOpen, setRejectOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [rejectError, setRejectError] = useState<string | null>(null);
  const done = (text: string) => {
    message.success(text);
    void queryClient.invalidateQueries({ queryKey: customerKeys.all });
    setRejectOpen(false);
    onClose();
  };
  const pass = useMutation({
    mutationFn: (id: number) => passAuthentication(id),
    onSuccess: () => done(t("authn.passed")),
    onError: (e) => setError(errorText(e, t.shell)),
  });
  const reject = useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => rejectAuthentication(id, reason),
    onSuccess: () => done(t("authn.rejected")),
    onError: (e) => setRejectError(errorText(e, t.shell)),
  });
  const pending = row?.status === AuthStatus.AUTHENTICATING;

  return (
    <Drawer
      open={row !== null}
      size={720}
      title={t("authn.drawerTitle", { user: row?.user ?? "" })}
      onClose={() => {
        setError(null);
        onClose();
      }}
      destroyOnHidden
      data-testid="authn-drawer"
      extra={
        pending && row ? (
          <Space>
            <Button
              danger
              onClick={() => {
                setRejectError(null);
                setRejectOpen(true);
              }}
              data-testid="authn-reject"
            >
              {t("authn.reject")}
            </Button>
            <Popconfirm title={t("authn.passConfirm", { user: row.user })} onConfirm={() => pass.mutate(row.id)}>
              <Button type="primary" loading={pass.isPending} data-testid="authn-pass">
                {t("authn.pass")}
              </Button>
            </Popconfirm>
          </Space>
        ) : null
      }
    >
      {row && (
        <Space orientation="vertical" size="large" style={{ width: "100%" }}>
          {error && <Alert type="error" showIcon title={error} />}
          {!pending && <Alert type="info" showIcon title={t("authn.decided")} />}
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              { key: "status", label: t("authn.status"), children: <AuthStatusTag status={row.status} /> },
              { key: "subject", label: t("authn.subjectType"), children: codeLabel(t, "subject", row.subjectType) },
              { key: "name", label: t("authn.name"), children: row.name },
              { key: "idNumber", label: t("authn.idNumber"), children: row.idNumber },
              { key: "contact", label: t("authn.contactName"), children: row.contactName ?? "-" },
              { key: "phone", label: t("authn.contactPhone"), children: row.contactPhone ?? "-" },
              { key: "created", label: t("common.createdAt"), children: formatTime(row.createdAt) },
              { key: "reviewed", label: t("authn.reviewedAt"), children: formatTime(row.reviewedAt) },
              ...(row.reason ? [{ key: "reason", label: t("authn.reason"), children: row.reason }] : []),
            ]}
          />
          {Array.from({ length: row.documentCount }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: documents are addressed by their position
            <div key={index}>
              <Typography.Title level={5}>{t("authn.document", { index: index + 1 })}</Typography.Title>
              <ProtectedFile
                path="/user/authentication/document"
                params={{ id: row.id, index }}
                fileName={`authentication-${row.id}-${index + 1}`}
                testId={`authn-document-${index}`}
              />
            </div>
          ))}
        </Space>
      )}
      <ReasonModal
        open={rejectOpen}
        title={t("authn.rejectTitle", { user: row?.user ?? "" })}
        requiredMessage={t("authn.reasonRequired")}
        loading={reject.isPending}
        error={rejectError}
        onSubmit={(reason) => row && reject.mutate({ id: row.id, reason })}
        onClose={() => setRejectOpen(false)}
        testId="authn-reject-modal"
      />
    </Drawer>
  );
}

import { UserType } from "@switchboard/contracts/codes";
import { App, Button, Flex, Input, Popconfirm, type TableColumnsType, Typography, Upload } from "antd";
import { useState } from "react";
import { PagedTable, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useListFilters } from "../../../hooks/use-list-filters";
import { formatNumber } from "../../../lib/format";
import { useSession } from "../../auth/context/session-context";
import { downloadCsv, saveBlob } from "../../batches/api";
import { CustomerSelect } from "../../batches/components/CustomerSelect";
import { formatTime } from "../../batches/components/time";
import { numbersOfFile, type OptOutRow, useAddOptOut, useImportOptOuts, useOptOuts, useRemoveOptOut } from "../api";
import { messages, type OptOutMessageKey } from "../messages";

type Filters = { keyword?: string; userId?: string };

/**
 * /app/opt-outs: the customer's opt-out list: add, import, export, search and remove numbers. In the back office
 * (/backend/customer/opt-outs) staff see the lists of the customers in their scope and change one customer's at a
 * time (chosen above the list).
 */
export default function OptOutsPage() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const staff = useSession().user.type !== UserType.USER;
  const url = useListFilters<Filters>(["keyword", "userId"]);
  const query = useOptOuts(url.params);
  const customerId = staff && url.filters.userId ? Number(url.filters.userId) : undefined;
  // Staff change one customer's list at a time; a customer its own.
  const canChange = !staff || customerId !== undefined;
  const add = useAddOptOut();
  const importNumbers = useImportOptOuts();
  const remove = useRemoveOptOut();
  const [phone, setPhone] = useState("");
  const [exporting, setExporting] = useState(false);

  const submitAdd = () => {
    const value = phone.trim();
    if (!value) {
      void message.warning(t("add.required"));
      return;
    }
    add.mutate(
      { phone: value, userId: customerId },
      {
        onSuccess: (row) => {
          setPhone("");
          void message.success(t("add.done", { phone: row.phone }));
        },
        onError: showError,
      },
    );
  };

  const importFile = async (file: File) => {
    const numbers = numbersOfFile(await file.text());
    if (numbers.length === 0) {
      void message.warning(t("import.empty"));
      return;
    }
    importNumbers.mutate(
      { numbers, userId: customerId },
      {
        onSuccess: (r) =>
          void message.success(
            t("import.done", {
              added: formatNumber(r.added),
              existing: formatNumber(r.existing),
              invalid: formatNumber(r.invalid),
            }),
          ),
        onError: showError,
      },
    );
  };

  const exportList = async () => {
    setExporting(true);
    try {
      saveBlob(await downloadCsv("/opt-out/export", { userId: customerId }, "opt-outs.csv", t("export.failed")));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  const columns: TableColumnsType<OptOutRow> = [
    ...(staff ? [{ title: t("col.customer"), dataIndex: "user", key: "user" }] : []),
    {
      title: t("col.phone"),
      dataIndex: "phone",
      key: "phone",
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t("col.source"),
      dataIndex: "source",
      key: "source",
      render: (v: number) => t(`source.${v}` as OptOutMessageKey),
    },
    { title: t("col.createdAt"), dataIndex: "createdAt", key: "createdAt", render: formatTime },
    {
      title: t("col.actions"),
      key: "actions",
      fixed: "right",
      render: (_, row) => (
        <Popconfirm
          title={t("removeConfirm", { phone: row.phone })}
          onConfirm={() =>
            remove.mutate(row.id, {
              onSuccess: () => void message.success(t("removed")),
              onError: showError,
            })
          }
        >
          <Button type="link" size="small" danger data-testid={`opt-out-remove-${row.id}`}>
            {t("remove")}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <PageContainer>
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" data-testid="opt-out-intro" style={{ margin: 0 }}>
          {t("intro")}
        </Typography.Paragraph>
        <Flex wrap gap={8} align="center">
          {staff && (
            <CustomerSelect
              value={url.filters.userId}
              onChange={(userId) => url.setFilters({ userId })}
              placeholder={t("customer.placeholder")}
              label={t("col.customer")}
              width={220}
              testId="opt-out-customer"
            />
          )}
          <Input
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            onPressEnter={submitAdd}
            disabled={!canChange}
            placeholder={t("add.placeholder")}
            aria-label={t("col.phone")}
            maxLength={32}
            style={{ width: 240 }}
            data-testid="opt-out-phone"
          />
          <Button
            type="primary"
            onClick={submitAdd}
            loading={add.isPending}
            disabled={!canChange}
            data-testid="opt-out-add"
          >
            {t("add.submit")}
          </Button>
          <Upload
            accept=".csv,.txt,text/csv,text/plain"
            showUploadList={false}
            disabled={!canChange}
            beforeUpload={(file) => {
              void importFile(file);
              return false;
            }}
          >
            <Button loading={importNumbers.isPending} disabled={!canChange} data-testid="opt-out-import">
              {t("import")}
            </Button>
          </Upload>
          <Button
            onClick={() => void exportList()}
            loading={exporting}
            disabled={!canChange}
            data-testid="opt-out-export"
          >
            {t("export")}
          </Button>
          <SearchBox
            search={url.search}
            placeholder={t("search.placeholder")}
            width={220}
            style={{ marginInlineStart: "auto" }}
            testId="opt-out-search"
          />
        </Flex>
        <PagedTable<OptOutRow>
          data-testid="opt-out-table"
          columns={columns}
          query={query}
          paging={url}
          empty={t("list.empty")}
          emptyTestId="opt-out-empty"
          retryTestId="opt-out-retry"
          showTotal={(total) => t("list.total", { total: formatNumber(total) })}
        />
      </Flex>
    </PageContainer>
  );
}

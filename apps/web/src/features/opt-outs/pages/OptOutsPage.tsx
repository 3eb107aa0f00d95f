import { App, Button, Empty, Flex, Input, Popconfirm, Table, type TableColumnsType, Typography, Upload } from "antd";
import { useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatNumber } from "../../../lib/format";
import { downloadCsv, saveBlob } from "../../batches/api";
import { formatTime } from "../../batches/components/time";
import { numbersOfFile, type OptOutRow, useAddOptOut, useImportOptOuts, useOptOuts, useRemoveOptOut } from "../api";
import { messages, type OptOutMessageKey } from "../messages";

type Filters = { keyword?: string };

/** /app/opt-outs: the customer's opt-out list: add, import, export, search and remove numbers. */
export default function OptOutsPage() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const url = useUrlFilters<Filters>(["keyword"]);
  const query = useOptOuts(url.params);
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
    add.mutate(value, {
      onSuccess: (row) => {
        setPhone("");
        void message.success(t("add.done", { phone: row.phone }));
      },
      onError: showError,
    });
  };

  const importFile = async (file: File) => {
    const numbers = numbersOfFile(await file.text());
    if (numbers.length === 0) {
      void message.warning(t("import.empty"));
      return;
    }
    importNumbers.mutate(numbers, {
      onSuccess: (r) =>
        void message.success(
          t("import.done", {
            added: formatNumber(r.added),
            existing: formatNumber(r.existing),
            invalid: formatNumber(r.invalid),
          }),
        ),
      onError: showError,
    });
  };

  const exportList = async () => {
    setExporting(true);
    try {
      saveBlob(await downloadCsv("/opt-out/export", {}, "opt-outs.csv", t("export.failed")));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  const columns: TableColumnsType<OptOutRow> = [
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
          <Input
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            onPressEnter={submitAdd}
            placeholder={t("add.placeholder")}
            aria-label={t("col.phone")}
            maxLength={32}
            style={{ width: 240 }}
            data-testid="opt-out-phone"
          />
          <Button type="primary" onClick={submitAdd} loading={add.isPending} data-testid="opt-out-add">
            {t("add.submit")}
          </Button>
          <Upload
            accept=".csv,.txt,text/csv,text/plain"
            showUploadList={false}
            beforeUpload={(file) => {
              void importFile(file);
              return false;
            }}
          >
            <Button loading={importNumbers.isPending} data-testid="opt-out-import">
              {t("import")}
            </Button>
          </Upload>
          <Button onClick={() => void exportList()} loading={exporting} data-testid="opt-out-export">
            {t("export")}
          </Button>
          <Input.Search
            allowClear
            defaultValue={url.filters.keyword}
            placeholder={t("search.placeholder")}
            aria-label={t("search.placeholder")}
            onSearch={(keyword) => url.setFilters({ keyword })}
            style={{ width: 220, marginInlineStart: "auto" }}
            data-testid="opt-out-search"
          />
        </Flex>
        {query.isError ? (
          <LoadError
            error={query.error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
            testId="opt-out-retry"
          />
        ) : (
          <Table<OptOutRow>
            rowKey="id"
            data-testid="opt-out-table"
            columns={columns}
            dataSource={query.data?.list ?? []}
            loading={query.isFetching}
            locale={{ emptyText: <Empty description={t("list.empty")} data-testid="opt-out-empty" /> }}
            pagination={{
              current: url.page,
              pageSize: url.pageSize,
              total: query.data?.total ?? 0,
              showTotal: (total) => t("list.total", { total: formatNumber(total) }),
              onChange: (next, size) => url.setPage(next, size),
            }}
          />
        )}
      </Flex>
    </PageContainer>
  );
}

import { UserType } from "@switchboard/contracts/codes";
import { useQuery } from "@tanstack/react-query";
import {
  App,
  Button,
  Empty,
  Flex,
  Input,
  Popconfirm,
  Select,
  Table,
  type TableColumnsType,
  Typography,
  Upload,
} from "antd";
import { useEffect, useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatNumber } from "../../../lib/format";
import { useSession } from "../../auth/context/session-context";
import { downloadCsv, saveBlob, searchCustomers } from "../../batches/api";
import { formatTime } from "../../batches/components/time";
import { numbersOfFile, type OptOutRow, useAddOptOut, useImportOptOuts, useOptOuts, useRemoveOptOut } from "../api";
import { messages, type OptOutMessageKey } from "../messages";

type Filters = { keyword?: string; userId?: string };

/** Staff: the customer whose list is shown and changed (the customers in the caller's scope). */
function CustomerSelect({ value, onChange }: { value?: string; onChange: (v: string | undefined) => void }) {
  const t = messages.useT();
  const [keyword, setKeyword] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(keyword.trim()), 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const query = useQuery({
    queryKey: ["opt-outs", "customers", debounced],
    queryFn: ({ signal }) => searchCustomers(debounced, signal),
  });
  const options = (query.data?.list ?? []).map((u) => ({
    value: String(u.id),
    label: u.nickname ? `${u.user} (${u.nickname})` : u.user,
  }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: `#${value}` });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      options={options}
      loading={query.isFetching}
      placeholder={t("customer.placeholder")}
      aria-label={t("col.customer")}
      style={{ width: 220 }}
      data-testid="opt-out-customer"
    />
  );
}

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
  const url = useUrlFilters<Filters>(["keyword", "userId"]);
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
          {staff && <CustomerSelect value={url.filters.userId} onChange={(userId) => url.setFilters({ userId })} />}
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

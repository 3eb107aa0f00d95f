import { SMS_TEMPLATE_SCENE_NAMES, SMS_TEMPLATE_SCENES } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, DatePicker, Empty, Input, Select, Space, Table, Tag } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { listRecords, type SmsRecordRow, settingsKeys, type TenantParam } from "../api";
import { ChooseTenant, useTenantScope } from "../components/TenantScope";
import { formatDateTime } from "../format";
import { messages } from "../messages";

function RecordList({ tenantId }: { tenantId: TenantParam }) {
  const t = messages.useT();
  const { filters, setFilters, page, pageSize, setPage, reset, params } = useUrlFilters<{
    phone?: string;
    status?: string;
    scene?: string;
    from?: string;
    to?: string;
  }>(["phone", "status", "scene", "from", "to"]);
  const [phone, setPhone] = useState(filters.phone ?? "");
  const list = useQuery({
    queryKey: settingsKeys.records(tenantId, params),
    queryFn: ({ signal }) => listRecords(tenantId, params, signal),
    placeholderData: keepPreviousData,
  });
  const sceneLabel = (s: string | null) =>
    s && s in SMS_TEMPLATE_SCENES ? t(`template.scene.${s}` as "template.scene.verify_code") : (s ?? "-");

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t("record.phone.placeholder")}
          aria-label={t("record.phone")}
          value={phone}
          onChange={(e) => setPhone(e.target.value.replace(/[^\d+]/g, ""))}
          onSearch={(v) => setFilters({ phone: v.trim() })}
          style={{ width: 200 }}
          maxLength={16}
        />
        <Select
          allowClear
          placeholder={t("common.status")}
          aria-label={t("common.status")}
          style={{ width: 130 }}
          value={filters.status}
          onChange={(v) => setFilters({ status: v })}
          options={["1", "2"].map((s) => ({ value: s, label: t(`record.status.${s}` as "record.status.1") }))}
        />
        <Select
          allowClear
          placeholder={t("template.scene")}
          aria-label={t("template.scene")}
          style={{ width: 170 }}
          value={filters.scene}
          onChange={(v) => setFilters({ scene: v })}
          options={SMS_TEMPLATE_SCENE_NAMES.map((s) => ({ value: s, label: sceneLabel(s) }))}
        />
        <DatePicker.RangePicker
          value={[filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]}
          onChange={(range) =>
            setFilters({
              from: range?.[0]?.startOf("day").toISOString(),
              to: range?.[1]?.endOf("day").toISOString(),
            })
          }
        />
        <Button
          onClick={() => {
            setPhone("");
            reset();
          }}
        >
          {t("common.reset")}
        </Button>
      </Space>
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <Table<SmsRecordRow>
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data?.list ?? []}
          data-testid="record-table"
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("record.empty")} /> }}
          pagination={{
            current: page,
            pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (p, size) => setPage(p, size),
          }}
          columns={[
            { title: t("record.phone"), dataIndex: "phone" },
            { title: t("record.template"), dataIndex: "templateName", render: (v: string | null) => v ?? "-" },
            { title: t("template.scene"), dataIndex: "scene", render: (v: string | null) => sceneLabel(v) },
            {
              title: t("common.status"),
              dataIndex: "status",
              render: (v: number) => (
                <Tag color={v === 1 ? "green" : "red"}>{t(`record.status.${v}` as "record.status.1")}</Tag>
              ),
            },
            { title: t("record.errorCode"), dataIndex: "errorCode", render: (v: string | null) => v ?? "-" },
            { title: t("record.sentAt"), dataIndex: "createdAt", render: (v: string) => formatDateTime(v) },
          ]}
        />
      )}
    </>
  );
}

/** setting/sms/record: the SMS the platform sent (phone numbers show only their last four digits). */
export default function SmsRecordsPage() {
  const scope = useTenantScope();
  return <PageContainer>{scope.missing ? <ChooseTenant /> : <RecordList tenantId={scope.tenantId} />}</PageContainer>;
}

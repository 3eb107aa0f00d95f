import { SMS_TEMPLATE_SCENE_NAMES, SMS_TEMPLATE_SCENES } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DatePicker, Tag } from "antd";
import dayjs from "dayjs";
import { FilterSelect, ListToolbar, PagedTable, ResetButton, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useListFilters } from "../../../hooks/use-list-filters";
import { listRecords, type SmsRecordRow, settingsKeys, type TenantParam } from "../api";
import { ChooseTenant, useTenantScope } from "../components/TenantScope";
import { formatDateTime } from "../format";
import { messages } from "../messages";

type RecordFilters = { phone?: string; status?: string; scene?: string; from?: string; to?: string };

/** A phone number as typed in the search box: digits and "+" only. */
const phoneText = (text: string) => text.replace(/[^\d+]/g, "");

function RecordList({ tenantId }: { tenantId: TenantParam }) {
  const t = messages.useT();
  const records = useListFilters<RecordFilters>(["phone", "status", "scene", "from", "to"], {
    searchKey: "phone",
    clean: phoneText,
  });
  const { filters, setFilters, params } = records;
  const list = useQuery({
    queryKey: settingsKeys.records(tenantId, params),
    queryFn: ({ signal }) => listRecords(tenantId, params, signal),
    placeholderData: keepPreviousData,
  });
  const sceneLabel = (s: string | null) =>
    s && s in SMS_TEMPLATE_SCENES ? t(`template.scene.${s}` as "template.scene.verify_code") : (s ?? "-");

  return (
    <>
      <ListToolbar marginBottom={12}>
        <SearchBox
          search={records.search}
          placeholder={t("record.phone.placeholder")}
          label={t("record.phone")}
          width={200}
          maxLength={16}
        />
        <FilterSelect
          list={records}
          name="status"
          placeholder={t("common.status")}
          width={130}
          options={["1", "2"].map((s) => ({ value: s, label: t(`record.status.${s}` as "record.status.1") }))}
        />
        <FilterSelect
          list={records}
          name="scene"
          placeholder={t("template.scene")}
          width={170}
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
        <ResetButton onReset={records.reset} />
      </ListToolbar>
      <PagedTable<SmsRecordRow>
        query={list}
        paging={records}
        data-testid="record-table"
        empty={t("record.empty")}
        simpleEmpty
        showSizeChanger
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
    </>
  );
}

/** setting/sms/record: the SMS the platform sent (phone numbers show only their last four digits). */
export default function SmsRecordsPage() {
  const scope = useTenantScope();
  return <PageContainer>{scope.missing ? <ChooseTenant /> : <RecordList tenantId={scope.tenantId} />}</PageContainer>;
}

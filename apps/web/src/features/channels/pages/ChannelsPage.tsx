import { DownOutlined } from "@ant-design/icons";
import type { ChannelItem } from "@switchboard/contracts";
import { ActiveStatus, ProductCode } from "@switchboard/contracts/codes";
import { App, Button, Dropdown, Popconfirm, Space, type TableColumnsType, Tabs, Tag } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useColumnChoice } from "../../../components/ColumnChooser";
import { FilterSelect, ListToolbar, PagedTable, ResetButton, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useTenantColumn } from "../../../components/tenant-column";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useListFilters } from "../../../hooks/use-list-filters";
import { useSearchParamSetter } from "../../../hooks/use-url-filters";
import { useChannelMutation, useChannels } from "../api";
import { DefaultChannelModal, TestChannelModal, TransferModal } from "../components/ChannelActionModals";
import { ChannelFormModal } from "../components/ChannelFormModal";
import { CHANNEL_KINDS } from "../components/channel-config";
import { RoutesPanel } from "../components/RoutesPanel";
import { messages } from "../messages";

type ChannelFilters = { productCode?: string; kind?: string; status?: string; keyword?: string };
type Dialog =
  | { kind: "create" }
  | { kind: "edit" | "test" | "default"; channel: ChannelItem }
  | { kind: "transfer"; channel?: ChannelItem };

function ChannelsPanel({ onRoutes }: { onRoutes: (c: ChannelItem) => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const list = useListFilters<ChannelFilters>(["productCode", "kind", "status", "keyword"]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const channels = useChannels(list.params);
  const status = useChannelMutation<{ id: number; status: number }>("/channel/status");

  async function changeStatus(c: ChannelItem, next: number) {
    if (await status.mutateAsync({ id: c.id, status: next }).catch((e: unknown) => showError(e))) {
      message.success(t("statusChanged"));
    }
  }

  const scope = (c: ChannelItem) =>
    c.countryScope === 1 ? t("scope.1") : t(`scope.${c.countryScope}` as "scope.2", { count: c.countryCodes.length });

  // A super admin reading every tenant's channels sees whose each is.
  const tenantColumn = useTenantColumn(channels.data?.list);
  const columns: TableColumnsType<ChannelItem> = [
    ...tenantColumn,
    { title: t("col.name"), dataIndex: "name" },
    { title: t("col.kind"), dataIndex: "kind", render: (k: string) => t(`kind.${k}` as "kind.smpp") },
    {
      title: t("col.product"),
      dataIndex: "productCode",
      render: (c: number) => <Tag>{t(`code.${c}` as "code.3000")}</Tag>,
    },
    { title: t("col.throughput"), dataIndex: "throughput", align: "right" },
    {
      title: t("col.countries"),
      key: "countries",
      render: (_, c) => <span title={c.countryCodes.join(", ")}>{scope(c)}</span>,
    },
    {
      title: t("col.status"),
      dataIndex: "status",
      render: (s: number) => (
        <Tag color={s === ActiveStatus.NORMAL ? "green" : "orange"}>{t(`status.${s}` as "status.1")}</Tag>
      ),
    },
    {
      title: t("col.defaultFor"),
      dataIndex: "defaultFor",
      render: (list: ChannelItem["defaultFor"]) => (list.length ? list.map((p) => p.name).join(", ") : t("none")),
    },
    { title: t("col.routes"), dataIndex: "routeCount", align: "right" },
    {
      title: t("col.actions"),
      key: "actions",
      fixed: "right",
      // the frequent actions as links, the rest in "more": the fixed column stays narrow
      render: (_, c) => (
        <Space size={0} wrap={false}>
          <Button
            type="link"
            size="small"
            onClick={() => setDialog({ kind: "edit", channel: c })}
            data-testid={`channel-edit-${c.id}`}
          >
            {t("action.edit")}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => setDialog({ kind: "test", channel: c })}
            data-testid={`channel-test-${c.id}`}
          >
            {t("action.test")}
          </Button>
          {c.status === ActiveStatus.NORMAL ? (
            <Popconfirm
              title={t("confirm.pause")}
              okText={t("ok")}
              cancelText={t("cancel")}
              onConfirm={() => changeStatus(c, ActiveStatus.PAUSED)}
            >
              <Button type="link" size="small" danger data-testid={`channel-pause-${c.id}`}>
                {t("action.pause")}
              </Button>
            </Popconfirm>
          ) : (
            <Button
              type="link"
              size="small"
              onClick={() => changeStatus(c, ActiveStatus.NORMAL)}
              data-testid={`channel-resume-${c.id}`}
            >
              {t("action.resume")}
            </Button>
          )}
          <Dropdown
            trigger={["click"]}
            menu={{
              items: [
                {
                  key: "default",
                  label: <span data-testid={`channel-default-${c.id}`}>{t("action.default")}</span>,
                },
                { key: "routes", label: t("action.routes") },
                { key: "transfer", label: t("action.transfer") },
              ],
              onClick: ({ key }) => {
                if (key === "default") setDialog({ kind: "default", channel: c });
                else if (key === "routes") onRoutes(c);
                else setDialog({ kind: "transfer", channel: c });
              },
            }}
          >
            <Button type="link" size="small" data-testid={`channel-more-${c.id}`}>
              {t("action.more")} <DownOutlined />
            </Button>
          </Dropdown>
        </Space>
      ),
    },
  ];
  const choice = useColumnChoice("channels", columns);

  return (
    <div data-testid="channels-panel">
      <ListToolbar
        actions={
          <>
            {choice.chooser}
            <Button onClick={() => setDialog({ kind: "transfer" })} data-testid="channel-transfer">
              {t("action.transfer")}
            </Button>
            <Button type="primary" onClick={() => setDialog({ kind: "create" })} data-testid="channel-create">
              {t("action.create")}
            </Button>
          </>
        }
      >
        <FilterSelect
          list={list}
          name="productCode"
          placeholder={t("filter.product")}
          width={140}
          options={Object.values(ProductCode).map((c) => ({ value: String(c), label: t(`code.${c}`) }))}
          testId="channels-filter-product"
        />
        <FilterSelect
          list={list}
          name="kind"
          placeholder={t("filter.kind")}
          width={140}
          options={CHANNEL_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          testId="channels-filter-kind"
        />
        <FilterSelect
          list={list}
          name="status"
          placeholder={t("filter.status")}
          width={120}
          options={Object.values(ActiveStatus).map((s) => ({ value: String(s), label: t(`status.${s}`) }))}
          testId="channels-filter-status"
        />
        <SearchBox search={list.search} placeholder={t("filter.keyword")} width={200} />
        <ResetButton onReset={list.reset} />
      </ListToolbar>
      <PagedTable<ChannelItem>
        query={channels}
        paging={list}
        empty={t("empty.channels")}
        simpleEmpty
        showSizeChanger
        onRow={(c) => ({ "data-testid": `channel-row-${c.name}` }) as object}
        columns={choice.columns}
      />
      {dialog?.kind === "create" && <ChannelFormModal onClose={() => setDialog(null)} />}
      {dialog?.kind === "edit" && <ChannelFormModal item={dialog.channel} onClose={() => setDialog(null)} />}
      {dialog?.kind === "test" && <TestChannelModal channel={dialog.channel} onClose={() => setDialog(null)} />}
      {dialog?.kind === "default" && <DefaultChannelModal channel={dialog.channel} onClose={() => setDialog(null)} />}
      {dialog?.kind === "transfer" && <TransferModal from={dialog.channel} onClose={() => setDialog(null)} />}
    </div>
  );
}

/** The admin's product/api (channel management): channels, their tests and defaults, and customer routes. */
export default function ChannelsPage() {
  const t = messages.useT();
  const [search] = useSearchParams();
  const setParam = useSearchParamSetter();
  const tab = search.get("tab") ?? "channels";
  const setTab = (next: string, extra: Record<string, string> = {}) =>
    setParam({ tab: next, ...extra }, { reset: true });
  return (
    <PageContainer>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k)}
        destroyOnHidden
        items={[
          {
            key: "channels",
            label: t("tab.channels"),
            children: <ChannelsPanel onRoutes={(c) => setTab("routes", { channelId: String(c.id) })} />,
          },
          { key: "routes", label: <span data-testid="tab-routes">{t("tab.routes")}</span>, children: <RoutesPanel /> },
        ]}
      />
    </PageContainer>
  );
}

import type { ChannelRouteItem } from "@switchboard/contracts";
import { ActiveStatus, InterfaceAction, UserType } from "@switchboard/contracts/codes";
import { App, Button, Popconfirm, Space, Tag } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { FilterSelect, ListToolbar, PagedTable, ResetButton } from "../../../components/ListPage";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { useAllProducts } from "../../products/api";
import { UserPicker } from "../../products/components/UserPicker";
import { useAllChannels, useChannelMutation, useRoutes } from "../api";
import { messages } from "../messages";
import { RouteFormModal, type RouteFormValues } from "./RouteFormModal";

type RouteFilters = { userId?: string; productId?: string; channelId?: string };
const CUSTOMER_ONLY = [UserType.USER] as const;

/** Per-customer routes (/channel/route/list) by customer, product or channel, with set and remove. */
export function RoutesPanel() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const list = useUrlFilters<RouteFilters>(["userId", "productId", "channelId"]);
  const { filters, setFilters, params } = list;
  const routes = useRoutes(params);
  const products = useAllProducts();
  const channels = useAllChannels();
  const remove = useChannelMutation<Record<string, unknown>, { action: number; routes: number }>("/channel/route");
  const [dialog, setDialog] = useState<Partial<RouteFormValues> | null>(null);
  const [customerLabel, setCustomerLabel] = useState<string>();

  async function removeRoute(r: ChannelRouteItem) {
    const body = {
      userId: r.userId,
      productId: r.productId,
      action: InterfaceAction.CLEAR,
      ...(r.countryCode === "*" ? {} : { countryCodes: [r.countryCode] }),
    };
    const result = await remove.mutateAsync(body).catch((e: unknown) => {
      showError(e);
      return null;
    });
    if (result) message.success(t("route.done.2", { count: result.routes }));
  }

  return (
    <div data-testid="routes-panel">
      <ListToolbar
        actions={
          <Button
            type="primary"
            onClick={() =>
              setDialog({
                userId: filters.userId ? Number(filters.userId) : undefined,
                productId: filters.productId ? Number(filters.productId) : undefined,
                channelId: filters.channelId ? Number(filters.channelId) : undefined,
              })
            }
            data-testid="route-create"
          >
            {t("route.set")}
          </Button>
        }
      >
        <UserPicker
          style={{ width: 220 }}
          allowClear
          type={UserType.USER}
          types={CUSTOMER_ONLY}
          placeholder={t("route.customer")}
          value={filters.userId ? Number(filters.userId) : undefined}
          knownLabel={customerLabel}
          onChange={(id, u) => {
            setCustomerLabel(u?.user);
            setFilters({ userId: id === undefined ? undefined : String(id) });
          }}
          data-testid="routes-filter-customer"
        />
        <FilterSelect
          list={list}
          name="productId"
          placeholder={t("route.product")}
          width={200}
          options={(products.data?.list ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
        />
        <FilterSelect
          list={list}
          name="channelId"
          placeholder={t("route.channel")}
          width={220}
          options={(channels.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        />
        <ResetButton onReset={list.reset} />
      </ListToolbar>
      <PagedTable<ChannelRouteItem>
        query={routes}
        paging={list}
        empty={t("route.empty")}
        simpleEmpty
        showSizeChanger
        columns={[
          { title: t("route.customer"), dataIndex: "username" },
          {
            title: t("route.product"),
            dataIndex: "productName",
            render: (n: string, r) => `${n} · ${t(`code.${r.productCode}` as "code.3000")}`,
          },
          {
            title: t("route.country"),
            dataIndex: "countryCode",
            render: (c: string) => (c === "*" ? t("route.allCountries") : c),
          },
          {
            title: t("route.channel"),
            dataIndex: "channelName",
            render: (n: string, r) => (
              <Space>
                {n}
                {r.channelStatus !== ActiveStatus.NORMAL && <Tag color="orange">{t("route.channelPaused")}</Tag>}
              </Space>
            ),
          },
          {
            title: t("route.updatedAt"),
            dataIndex: "updatedAt",
            render: (d: string) => dayjs(d).format("YYYY-MM-DD HH:mm"),
          },
          {
            title: t("col.actions"),
            key: "actions",
            render: (_, r) => (
              <Popconfirm
                title={
                  r.countryCode === "*"
                    ? t("route.confirmClearAll")
                    : t("route.confirmClear", { country: r.countryCode })
                }
                okText={t("ok")}
                cancelText={t("cancel")}
                onConfirm={() => removeRoute(r)}
              >
                <Button type="link" size="small" danger>
                  {r.countryCode === "*" ? t("route.clearAll") : t("route.clear")}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      {dialog && <RouteFormModal initial={dialog} customerLabel={customerLabel} onClose={() => setDialog(null)} />}
    </div>
  );
}

/**
 * THE route tree of the web client (spec section 2): the customer app (/app), the back office
 * (/backend), the RCS portal (/user) and the public login / register pages.
 *
 * Everything else is derived from it: the router (build-routes.tsx), the menus and the guards
 * (access.ts), the parent redirects (flatten.ts). Pages are lazy imports, so every route is its own
 * chunk and antd components load with the route that uses them.
 */
import { UserType } from "../lib/user-type";
import type { PageLoader, RouteNode } from "./types";

const { ADMIN, AGENT, USER, SUPER_ADMIN } = UserType;

// The RCS portal's own pages (areas/rcs); the rest of the portal reuses the features' pages.
const rcsHomePage: PageLoader = () => import("../areas/rcs/pages/RcsHomePage");
const rcsListPage: PageLoader = () => import("../areas/rcs/pages/RcsMessageListPage");
const rcsDetailPage: PageLoader = () => import("../areas/rcs/pages/RcsDetailPage");
const rcsCreatePage: PageLoader = () => import("../areas/rcs/pages/RcsCreatePage");
const rcsBalancePage =
  (name: "RcsRechargePage" | "RcsConsumePage" | "RcsRemitPage"): PageLoader =>
  () =>
    import("../areas/rcs/pages/RcsBalancePages").then((m) => ({ default: m[name] }));

const customerDashboardPage: PageLoader = () => import("../features/dashboard/pages/CustomerDashboardPage");
const backendDashboardPage: PageLoader = () => import("../features/dashboard/pages/BackendDashboardPage");
const remitPage: PageLoader = () => import("../features/remit/pages/RemitPage");
const rechargeRecordsPage: PageLoader = () => import("../features/finance-records/pages/RechargeRecordsPage");
const consumeRecordsPage: PageLoader = () => import("../features/finance-records/pages/ConsumeRecordsPage");

const customerTaskPage: PageLoader = () => import("../features/batches/pages/CustomerTaskPage");
const inboxPage: PageLoader = () => import("../features/inbox/pages/InboxPage");
const backendTaskPage: PageLoader = () => import("../features/batches/pages/BackendTaskPage");
const backendBatchDetailPage: PageLoader = () => import("../features/batches/pages/BackendDetailPage");

const developerPage: PageLoader = () => import("../features/developer/pages/DeveloperPage");
const developerInfoPage: PageLoader = () => import("../features/developer/pages/DeveloperInfoPage");
const developerIpPage: PageLoader = () => import("../features/developer/pages/DeveloperIpPage");
const developerNotifyPage: PageLoader = () => import("../features/developer/pages/DeveloperNotifyPage");
const noticePage: PageLoader = () => import("../features/notice/pages/NoticePage");
const noticeManagePage: PageLoader = () => import("../features/notice/pages/NoticeManagePage");

const customerLogin: PageLoader = () =>
  import("../features/auth/pages/LoginPage").then((m) => ({ default: m.CustomerLoginPage }));
const controlLogin: PageLoader = () =>
  import("../features/auth/pages/LoginPage").then((m) => ({ default: m.ControlLoginPage }));
const staffLogin: PageLoader = () =>
  import("../features/auth/pages/LoginPage").then((m) => ({ default: m.StaffLoginPage }));
const customerRegister: PageLoader = () =>
  import("../features/auth/pages/RegisterPage").then((m) => ({ default: m.CustomerRegisterPage }));
const controlRegister: PageLoader = () =>
  import("../features/auth/pages/RegisterPage").then((m) => ({ default: m.ControlRegisterPage }));

export const PRODUCTS = [
  { product: "rcs", code: 1000 },
  { product: "ws", code: 2000 },
  { product: "sms", code: 3000 },
] as const;

/** Back-office message lists filtered by batch status (spec section 2). */
const MESSAGE_FILTERS = [
  { filterType: 1, key: "review", label: "route.backend.message.review" },
  { filterType: 20, key: "pending", label: "route.backend.message.pending" },
  { filterType: 21, key: "sending", label: "route.backend.message.sending" },
  { filterType: 22, key: "finished", label: "route.backend.message.finished" },
] as const;

function backendProductGroup({ product, code }: (typeof PRODUCTS)[number]): RouteNode {
  const key = `backend.${product}`;
  return {
    path: product,
    key,
    label: `route.backend.${product}`,
    icon: product,
    hiddenInRcs: product !== "rcs",
    children: [
      {
        path: "message/task",
        key: `${key}.task`,
        label: "route.backend.message.task",
        meta: { product, productCode: code },
        page: backendTaskPage,
      },
      ...MESSAGE_FILTERS.map(
        (filter): RouteNode => ({
          path: `message/${filter.filterType}`,
          key: `${key}.${filter.key}`,
          label: filter.label,
          meta: { product, productCode: code, filterType: filter.filterType },
          page: backendTaskPage,
        }),
      ),
      {
        path: "message/detail/:batchId",
        key: `${key}.detail`,
        label: "route.backend.message.detail",
        hideInMenu: true,
        activeMenu: `${key}.task`,
        meta: { product, productCode: code },
        page: backendBatchDetailPage,
      },
    ],
  };
}

const RCS_MESSAGE_TYPES = ["processing", "sending", "finish"] as const;

export const routeTree: readonly RouteNode[] = [
  // Public pages
  { path: "/login", key: "login", label: "route.login", public: true, page: customerLogin },
  { path: "/register", key: "register", label: "route.register", public: true, page: customerRegister },
  { path: "/control/login", key: "control.login", label: "route.controlLogin", public: true, page: controlLogin },
  {
    path: "/control/register",
    key: "control.register",
    label: "route.controlRegister",
    public: true,
    page: controlRegister,
  },
  { path: "/system/login", key: "system.login", label: "route.systemLogin", public: true, page: staffLogin },
  { path: "/backend/login", key: "backend.login", label: "route.backendLogin", public: true, page: staffLogin },

  // Customer app
  {
    path: "/app",
    key: "app",
    label: "route.app",
    area: "app",
    layout: "sidebar",
    roles: [USER],
    children: [
      {
        path: "dashboard",
        key: "app.dashboard",
        label: "route.app.dashboard",
        icon: "home",
        page: customerDashboardPage,
      },
      {
        path: "dashboard/remit",
        key: "app.dashboard.remit",
        label: "route.app.remit",
        hideInMenu: true,
        activeMenu: "app.dashboard",
        page: remitPage,
      },
      ...PRODUCTS.map(
        ({ product, code }): RouteNode => ({
          path: `${product}/message/task`,
          key: `app.${product}.task`,
          label: `route.app.${product}Send`,
          icon: product,
          hiddenInRcs: product !== "rcs",
          meta: { product, productCode: code },
          page: customerTaskPage,
        }),
      ),
      {
        path: "search",
        key: "app.search",
        label: "route.app.search",
        icon: "message",
        page: () => import("../features/message-search/pages/MessageSearchPage"),
      },
      {
        path: "inbox",
        key: "app.inbox",
        label: "route.app.inbox",
        icon: "message",
        page: inboxPage,
      },
      {
        path: "finance",
        key: "app.finance",
        label: "route.app.finance",
        icon: "finance",
        children: [
          {
            path: "recharge/add",
            key: "app.finance.recharge.add",
            label: "route.app.rechargeRecord",
            meta: { type: "add" },
            page: rechargeRecordsPage,
          },
          {
            path: "recharge/deduct",
            key: "app.finance.recharge.deduct",
            label: "route.app.deductRecord",
            meta: { type: "deduct" },
            page: rechargeRecordsPage,
          },
          {
            path: "consume/customer",
            key: "app.finance.consume",
            label: "route.app.consumeRecord",
            page: consumeRecordsPage,
          },
        ],
      },
      {
        path: "notice",
        key: "app.notice",
        label: "route.app.notice",
        icon: "notice",
        menuOnlyDomestic: true,
        page: noticePage,
      },
      {
        path: "developer",
        key: "app.developer",
        label: "route.app.developer",
        icon: "developer",
        page: developerPage,
      },
      {
        path: "sender-ids",
        key: "app.senderIds",
        label: "route.app.senderIds",
        icon: "sms",
        hiddenInRcs: true,
        page: () => import("../features/sender-ids/pages/SenderIdsPage"),
      },
      {
        path: "opt-outs",
        key: "app.optOuts",
        label: "route.app.optOuts",
        icon: "message",
        page: () => import("../features/opt-outs/pages/OptOutsPage"),
      },
    ],
  },

  // Back office
  {
    path: "/backend",
    key: "backend",
    label: "route.backend",
    area: "backend",
    layout: "sidebar",
    roles: [ADMIN, AGENT, SUPER_ADMIN],
    children: [
      {
        path: "dashboard",
        key: "backend.dashboard",
        label: "route.backend.dashboard",
        icon: "home",
        page: backendDashboardPage,
      },
      {
        path: "customer",
        key: "backend.customer",
        label: "route.backend.customer",
        icon: "customer",
        children: [
          {
            path: "list",
            key: "backend.customer.list",
            label: "route.backend.customer.list",
            page: () => import("../features/customers/pages/CustomerListPage"),
          },
          {
            path: "recharge/add",
            key: "backend.customer.recharge.add",
            label: "route.backend.customer.rechargeAdd",
            meta: { type: "add" },
            page: () => import("../features/customers/pages/RechargeRecordPage"),
          },
          {
            path: "recharge/deduct",
            key: "backend.customer.recharge.deduct",
            label: "route.backend.customer.rechargeDeduct",
            meta: { type: "deduct" },
            page: () => import("../features/customers/pages/RechargeRecordPage"),
          },
          {
            path: "consume",
            key: "backend.customer.consume",
            label: "route.backend.customer.consume",
            page: () => import("../features/customers/pages/ConsumePage"),
          },
          {
            path: "remit",
            key: "backend.customer.remit",
            label: "route.backend.customer.remit",
            page: () => import("../features/customers/pages/RemitPage"),
          },
          {
            path: "authentication",
            key: "backend.customer.authentication",
            label: "route.backend.customer.authentication",
            page: () => import("../features/customers/pages/AuthenticationPage"),
          },
          {
            path: "sender-ids",
            key: "backend.customer.senderIds",
            label: "route.backend.customer.senderIds",
            hiddenInRcs: true,
            page: () => import("../features/sender-ids/pages/SenderIdReviewPage"),
          },
          {
            path: "opt-outs",
            key: "backend.customer.optOuts",
            label: "route.backend.customer.optOuts",
            page: () => import("../features/opt-outs/pages/OptOutsPage"),
          },
          {
            path: "callbacks",
            key: "backend.customer.callbacks",
            label: "route.backend.customer.callbacks",
            page: () => import("../features/developer/pages/StaffNotifyAttemptsPage"),
          },
          {
            path: "log",
            key: "backend.customer.log",
            label: "route.backend.customer.log",
            roles: [ADMIN],
            page: () => import("../features/customers/pages/LoginLogPage"),
          },
        ],
      },
      ...PRODUCTS.map(backendProductGroup),
      {
        path: "search",
        key: "backend.search",
        label: "route.backend.search",
        icon: "message",
        page: () => import("../features/message-search/pages/MessageSearchPage"),
      },
      {
        path: "finance",
        key: "backend.finance",
        label: "route.backend.finance",
        icon: "finance",
        roles: [AGENT],
        children: [
          {
            path: "recharge",
            key: "backend.finance.recharge",
            label: "route.backend.finance.recharge",
            page: () =>
              import("../features/backend-finance/pages/AgentFinancePages").then((m) => ({
                default: m.AgentRechargePage,
              })),
          },
          {
            path: "deduct",
            key: "backend.finance.deduct",
            label: "route.backend.finance.deduct",
            page: () =>
              import("../features/backend-finance/pages/AgentFinancePages").then((m) => ({
                default: m.AgentDeductPage,
              })),
          },
          {
            path: "consume",
            key: "backend.finance.consume",
            label: "route.backend.finance.consume",
            page: () =>
              import("../features/backend-finance/pages/AgentFinancePages").then((m) => ({
                default: m.AgentConsumePage,
              })),
          },
        ],
      },
      {
        path: "product",
        key: "backend.product",
        label: "route.backend.product",
        icon: "product",
        roles: [ADMIN],
        children: [
          {
            path: "api",
            key: "backend.product.api",
            label: "route.backend.product.api",
            page: () => import("../features/channels/pages/ChannelsPage"),
          },
          {
            path: "list",
            key: "backend.product.list",
            label: "route.backend.product.list",
            page: () => import("../features/products/pages/ProductListPage"),
          },
          {
            path: "statistics",
            key: "backend.product.statistics",
            label: "route.backend.product.statistics",
            page: () => import("../features/channels/pages/ChannelStatsPage"),
          },
          {
            path: "finance/api",
            key: "backend.product.finance.api",
            label: "route.backend.product.financeApi",
            page: () => import("../features/channels/pages/ChannelFinancePage"),
          },
          {
            path: "finance/remit",
            key: "backend.product.finance.remit",
            label: "route.backend.product.financeRemit",
            page: () => import("../features/customers/pages/RemitPage"),
          },
        ],
      },
      {
        path: "setting",
        key: "backend.setting",
        label: "route.backend.setting",
        icon: "setting",
        roles: [ADMIN],
        children: [
          {
            path: "account",
            key: "backend.setting.account",
            label: "route.backend.setting.account",
            page: () => import("../features/settings/pages/AccountsPage"),
          },
          {
            path: "sms/template",
            key: "backend.setting.sms.template",
            label: "route.backend.setting.smsTemplate",
            page: () => import("../features/settings/pages/SmsTemplatesPage"),
          },
          {
            path: "sms/record",
            key: "backend.setting.sms.record",
            label: "route.backend.setting.smsRecord",
            page: () => import("../features/settings/pages/SmsRecordsPage"),
          },
          {
            path: "system",
            key: "backend.setting.system",
            label: "route.backend.setting.system",
            page: () => import("../features/settings/pages/SystemSettingsPage"),
          },
          {
            path: "notice",
            key: "backend.setting.notice",
            label: "route.backend.setting.notice",
            roles: [ADMIN],
            page: noticeManagePage,
          },
        ],
      },
      {
        path: "tenant",
        key: "backend.tenant",
        label: "route.backend.tenant",
        icon: "setting",
        roles: [SUPER_ADMIN],
        children: [
          {
            path: "list",
            key: "backend.tenant.list",
            label: "route.backend.tenant.list",
            page: () => import("../features/tenants/pages/TenantListPage"),
          },
        ],
      },
    ],
  },

  // RCS portal
  {
    path: "/user",
    key: "rcs",
    label: "route.rcs",
    area: "rcs",
    layout: "topbar",
    roles: [USER],
    children: [
      { path: "home", key: "rcs.home", label: "route.rcs.home", icon: "home", page: rcsHomePage },
      {
        path: "message",
        key: "rcs.message",
        label: "route.rcs.message",
        icon: "message",
        children: [
          ...RCS_MESSAGE_TYPES.map(
            (type): RouteNode => ({
              path: type,
              key: `rcs.message.${type}`,
              label: `route.rcs.message.${type}`,
              meta: { type },
              page: rcsListPage,
            }),
          ),
          ...RCS_MESSAGE_TYPES.flatMap((type): RouteNode[] => [
            {
              path: `${type}/detail/:batchId`,
              key: `rcs.message.${type}.detail`,
              label: "route.rcs.message.detail",
              hideInMenu: true,
              activeMenu: `rcs.message.${type}`,
              meta: { type },
              page: rcsDetailPage,
            },
            {
              path: `${type}/create`,
              key: `rcs.message.${type}.create`,
              label: "route.rcs.message.create",
              hideInMenu: true,
              activeMenu: `rcs.message.${type}`,
              meta: { type },
              page: rcsCreatePage,
            },
          ]),
        ],
      },
      { path: "inbox", key: "rcs.inbox", label: "route.rcs.inbox", icon: "message", page: inboxPage },
      {
        path: "balance",
        key: "rcs.balance",
        label: "route.rcs.balance",
        icon: "balance",
        children: [
          {
            path: "recharge",
            key: "rcs.balance.recharge",
            label: "route.rcs.balance.recharge",
            page: rcsBalancePage("RcsRechargePage"),
          },
          {
            path: "remit",
            key: "rcs.balance.remit",
            label: "route.rcs.balance.remit",
            hideInMenu: true,
            activeMenu: "rcs.balance.recharge",
            page: rcsBalancePage("RcsRemitPage"),
          },
          {
            path: "consume",
            key: "rcs.balance.consume",
            label: "route.rcs.balance.consume",
            page: rcsBalancePage("RcsConsumePage"),
          },
        ],
      },
      {
        path: "developer",
        key: "rcs.developer",
        label: "route.rcs.developer",
        icon: "developer",
        children: [
          { path: "info", key: "rcs.developer.info", label: "route.rcs.developer.info", page: developerInfoPage },
          { path: "ip", key: "rcs.developer.ip", label: "route.rcs.developer.ip", page: developerIpPage },
          {
            path: "notify",
            key: "rcs.developer.notify",
            label: "route.rcs.developer.notify",
            page: developerNotifyPage,
          },
        ],
      },
      { path: "notice", key: "rcs.notice", label: "route.rcs.notice", icon: "notice", page: noticePage },
    ],
  },
];

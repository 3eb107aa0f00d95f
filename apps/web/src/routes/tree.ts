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

// Pages of this shell: one honest "being built" page per area; later tasks swap in real pages.
const appPage: PageLoader = () => import("../areas/app/pages/UnderConstructionPage");
const backendPage: PageLoader = () => import("../areas/backend/pages/UnderConstructionPage");
const rcsPage: PageLoader = () => import("../areas/rcs/pages/UnderConstructionPage");

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
        page: backendPage,
      },
      ...MESSAGE_FILTERS.map(
        (filter): RouteNode => ({
          path: `message/${filter.filterType}`,
          key: `${key}.${filter.key}`,
          label: filter.label,
          meta: { product, productCode: code, filterType: filter.filterType },
          page: backendPage,
        }),
      ),
      {
        path: "message/detail/:batchId",
        key: `${key}.detail`,
        label: "route.backend.message.detail",
        hideInMenu: true,
        activeMenu: `${key}.task`,
        meta: { product, productCode: code },
        page: backendPage,
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
      { path: "dashboard", key: "app.dashboard", label: "route.app.dashboard", icon: "home", page: appPage },
      {
        path: "dashboard/remit",
        key: "app.dashboard.remit",
        label: "route.app.remit",
        hideInMenu: true,
        activeMenu: "app.dashboard",
        page: appPage,
      },
      ...PRODUCTS.map(
        ({ product, code }): RouteNode => ({
          path: `${product}/message/task`,
          key: `app.${product}.task`,
          label: `route.app.${product}Send`,
          icon: product,
          hiddenInRcs: product !== "rcs",
          meta: { product, productCode: code },
          page: appPage,
        }),
      ),
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
            page: appPage,
          },
          {
            path: "recharge/deduct",
            key: "app.finance.recharge.deduct",
            label: "route.app.deductRecord",
            meta: { type: "deduct" },
            page: appPage,
          },
          { path: "consume/customer", key: "app.finance.consume", label: "route.app.consumeRecord", page: appPage },
        ],
      },
      {
        path: "notice",
        key: "app.notice",
        label: "route.app.notice",
        icon: "notice",
        menuOnlyDomestic: true,
        page: appPage,
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
        page: backendPage,
      },
      {
        path: "customer",
        key: "backend.customer",
        label: "route.backend.customer",
        icon: "customer",
        children: [
          { path: "list", key: "backend.customer.list", label: "route.backend.customer.list", page: backendPage },
          {
            path: "recharge/add",
            key: "backend.customer.recharge.add",
            label: "route.backend.customer.rechargeAdd",
            meta: { type: "add" },
            page: backendPage,
          },
          {
            path: "recharge/deduct",
            key: "backend.customer.recharge.deduct",
            label: "route.backend.customer.rechargeDeduct",
            meta: { type: "deduct" },
            page: backendPage,
          },
          {
            path: "consume",
            key: "backend.customer.consume",
            label: "route.backend.customer.consume",
            page: backendPage,
          },
          { path: "remit", key: "backend.customer.remit", label: "route.backend.customer.remit", page: backendPage },
          {
            path: "authentication",
            key: "backend.customer.authentication",
            label: "route.backend.customer.authentication",
            page: backendPage,
          },
          {
            path: "log",
            key: "backend.customer.log",
            label: "route.backend.customer.log",
            roles: [ADMIN],
            page: backendPage,
          },
        ],
      },
      ...PRODUCTS.map(backendProductGroup),
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
            page: backendPage,
          },
          { path: "deduct", key: "backend.finance.deduct", label: "route.backend.finance.deduct", page: backendPage },
          {
            path: "consume",
            key: "backend.finance.consume",
            label: "route.backend.finance.consume",
            page: backendPage,
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
          { path: "api", key: "backend.product.api", label: "route.backend.product.api", page: backendPage },
          { path: "list", key: "backend.product.list", label: "route.backend.product.list", page: backendPage },
          {
            path: "statistics",
            key: "backend.product.statistics",
            label: "route.backend.product.statistics",
            page: backendPage,
          },
          {
            path: "finance/api",
            key: "backend.product.finance.api",
            label: "route.backend.product.financeApi",
            page: backendPage,
          },
          {
            path: "finance/remit",
            key: "backend.product.finance.remit",
            label: "route.backend.product.financeRemit",
            page: backendPage,
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
            page: backendPage,
          },
          {
            path: "sms/template",
            key: "backend.setting.sms.template",
            label: "route.backend.setting.smsTemplate",
            page: backendPage,
          },
          {
            path: "sms/record",
            key: "backend.setting.sms.record",
            label: "route.backend.setting.smsRecord",
            page: backendPage,
          },
          { path: "system", key: "backend.setting.system", label: "route.backend.setting.system", page: backendPage },
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
      { path: "home", key: "rcs.home", label: "route.rcs.home", icon: "home", page: rcsPage },
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
              page: rcsPage,
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
              page: rcsPage,
            },
            {
              path: `${type}/create`,
              key: `rcs.message.${type}.create`,
              label: "route.rcs.message.create",
              hideInMenu: true,
              activeMenu: `rcs.message.${type}`,
              meta: { type },
              page: rcsPage,
            },
          ]),
        ],
      },
      {
        path: "balance",
        key: "rcs.balance",
        label: "route.rcs.balance",
        icon: "balance",
        children: [
          { path: "recharge", key: "rcs.balance.recharge", label: "route.rcs.balance.recharge", page: rcsPage },
          { path: "consume", key: "rcs.balance.consume", label: "route.rcs.balance.consume", page: rcsPage },
        ],
      },
      {
        path: "developer",
        key: "rcs.developer",
        label: "route.rcs.developer",
        icon: "developer",
        children: [
          { path: "info", key: "rcs.developer.info", label: "route.rcs.developer.info", page: rcsPage },
          { path: "ip", key: "rcs.developer.ip", label: "route.rcs.developer.ip", page: rcsPage },
          { path: "notify", key: "rcs.developer.notify", label: "route.rcs.developer.notify", page: rcsPage },
        ],
      },
    ],
  },
];

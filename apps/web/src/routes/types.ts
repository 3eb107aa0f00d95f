import type { ComponentType } from "react";
import type { MessageKey } from "../lib/i18n";
import type { UserType } from "../lib/user-type";

/** A lazily imported module whose default export is the page (or layout). */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/** Names of the menu icons; src/layouts/menu-icons.tsx maps each to an @ant-design/icons component. */
export type MenuIconName =
  | "home"
  | "customer"
  | "rcs"
  | "ws"
  | "sms"
  | "finance"
  | "notice"
  | "product"
  | "setting"
  | "message"
  | "balance"
  | "developer";

/** Which chrome an area gets. */
export type LayoutKind = "sidebar" | "topbar";

export type AreaName = "app" | "backend" | "rcs";

/** Static values a page reads from its route (e.g. the product of a message list). */
export type RouteMeta = Readonly<Record<string, string | number>>;

/**
 * One node of the route tree (src/routes/tree.ts). Menus, guards, redirects and the router are all
 * derived from the tree.
 */
export interface RouteNode {
  /**
   * Top-level nodes: absolute ("/app", "/login"). Below: relative, may hold several segments
   * ("rcs/message/task") and `:params` ("message/detail/:batchId").
   */
  path: string;
  /** Unique, stable key; also the antd Menu key. */
  key: string;
  /** i18n key of the menu entry and page title. */
  label: MessageKey;
  icon?: MenuIconName;
  /** Allowed user types; unset = no restriction beyond the ancestors'. Super admin may open what admin may. */
  roles?: readonly UserType[];
  /** Not part of the RCS variant (WS and SMS groups): the route does not exist there. */
  hiddenInRcs?: boolean;
  /** A page reachable by link only (details, create forms). */
  hideInMenu?: boolean;
  /** Shown in the menu only in domestic mode (the customer notice). */
  menuOnlyDomestic?: boolean;
  /** Menu key to highlight while this (hidden) page is open. */
  activeMenu?: string;
  /** Public page (login, register): no session needed. */
  public?: boolean;
  /** Top-level area nodes only. */
  area?: AreaName;
  layout?: LayoutKind;
  /** The page; a node without one redirects to its first child. */
  page?: PageLoader;
  meta?: RouteMeta;
  children?: readonly RouteNode[];
}

/** A node with its absolute path and its ancestors. */
export interface FlatRoute {
  node: RouteNode;
  fullPath: string;
  /** Ancestors from the top-level node down to and including `node`. */
  chain: readonly RouteNode[];
}

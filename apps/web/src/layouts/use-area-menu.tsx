import type { MenuProps } from "antd";
import { useMemo } from "react";
import { Link, useMatches } from "react-router-dom";
import { buildMenu, type MenuEntry, menuSelection } from "../access";
import { useSession } from "../features/auth/context/session-context";
import { config } from "../lib/config";
import { type TFunction, useI18n } from "../lib/i18n";
import { useDomesticMode } from "../lib/international";
import type { RouteHandle } from "../routes/build-routes";
import type { RouteNode } from "../routes/types";
import { menuIcons } from "./menu-icons";

type MenuItems = NonNullable<MenuProps["items"]>;

function toItems(entries: readonly MenuEntry[], t: TFunction): MenuItems {
  return entries.map((entry) => {
    const Icon = entry.icon ? menuIcons[entry.icon] : null;
    const icon = Icon ? <Icon key={entry.key} /> : undefined;
    if (entry.children) {
      return { key: entry.key, icon, label: t(entry.label), children: toItems(entry.children, t) };
    }
    return { key: entry.key, icon, label: <Link to={entry.path}>{t(entry.label)}</Link> };
  });
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === "object" && handle !== null && "route" in handle;
}

/** The antd Menu of an area: entries the user may see (access.ts) and the entry of the open page. */
export function useAreaMenu(area: RouteNode) {
  const { t, lang } = useI18n();
  const { user } = useSession();
  const domestic = useDomesticMode();
  const matches = useMatches();
  const current = [...matches].reverse().find((match) => isRouteHandle(match.handle))?.handle as
    | RouteHandle
    | undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: labels change with the language
  const items = useMemo(
    () => toItems(buildMenu(area, { userType: user.type, variant: config.variant, domestic }), t),
    [area, user.type, domestic, t, lang],
  );
  const selection = current ? menuSelection(current.route) : { selectedKey: "", openKeys: [] };
  return { items, selectedKeys: [selection.selectedKey], openKeys: selection.openKeys, current: current?.route };
}

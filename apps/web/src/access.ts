/**
 * Who may see what (spec section 6), as pure functions over the route tree.
 *
 * `canSeeRoute` is the ONE decision: the router's guards, the parent redirects and the menus all use
 * it. A route is visible when it exists in the current variant (the WS and SMS groups do not exist in
 * the RCS variant) and every node on its way allows the user type. A super admin may open whatever an
 * admin may.
 */
import type { Variant } from "./lib/config";
import type { MessageKey } from "./lib/i18n";
import { UserType } from "./lib/user-type";
import type { FlatRoute, MenuIconName, RouteNode } from "./routes/types";

export type AccessRule = Pick<RouteNode, "roles" | "hiddenInRcs">;

/** Does the route exist in this variant? (Routes that do not exist answer 404, not 403.) */
export function isInVariant(chain: readonly AccessRule[], variant: Variant): boolean {
  return variant !== "rcs" || chain.every((node) => !node.hiddenInRcs);
}

function rolesAllow(roles: readonly UserType[] | undefined, userType: UserType | null): boolean {
  if (!roles) return true;
  if (userType === null) return false;
  return roles.includes(userType) || (userType === UserType.SUPER_ADMIN && roles.includes(UserType.ADMIN));
}

/**
 * May a user of this type see the route whose nodes (top-level node first) are `chain`?
 * `userType` null = not logged in: only routes without role restrictions (the public pages).
 */
export function canSeeRoute(userType: UserType | null, chain: readonly AccessRule[], variant: Variant): boolean {
  return isInVariant(chain, variant) && chain.every((node) => rolesAllow(node.roles, userType));
}

export interface MenuContext {
  userType: UserType | null;
  variant: Variant;
  /** Domestic mode shows the entries marked `menuOnlyDomestic`. */
  domestic: boolean;
}

export interface MenuEntry {
  key: string;
  label: MessageKey;
  icon?: MenuIconName;
  path: string;
  children?: MenuEntry[];
}

function menuEntries(nodes: readonly RouteNode[], parent: FlatRoute, ctx: MenuContext): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const node of nodes) {
    if (node.hideInMenu || (node.menuOnlyDomestic && !ctx.domestic)) continue;
    const chain = [...parent.chain, node];
    if (!canSeeRoute(ctx.userType, chain, ctx.variant)) continue;
    const path = `${parent.fullPath}/${node.path}`;
    const entry: MenuEntry = { key: node.key, label: node.label, path };
    if (node.icon) entry.icon = node.icon;
    if (node.children?.length) {
      const children = menuEntries(node.children, { node, fullPath: path, chain }, ctx);
      if (children.length === 0 && !node.page) continue;
      if (children.length > 0) entry.children = children;
    }
    entries.push(entry);
  }
  return entries;
}

/** The menu of an area: the visible entries of its tree, groups without a visible child dropped. */
export function buildMenu(area: RouteNode, ctx: MenuContext): MenuEntry[] {
  return menuEntries(area.children ?? [], { node: area, fullPath: area.path, chain: [area] }, ctx);
}

/** The menu entry to highlight for a route, and the groups to open around it. */
export function menuSelection(route: FlatRoute): { selectedKey: string; openKeys: string[] } {
  return {
    selectedKey: route.node.activeMenu ?? route.node.key,
    openKeys: route.chain.slice(1, -1).map((node) => node.key),
  };
}

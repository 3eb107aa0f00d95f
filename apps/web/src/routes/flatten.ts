/** Derivations of the route tree that do not need React: flat route lists and parent redirects. */
import { canSeeRoute, isInVariant } from "../access";
import type { Variant } from "../lib/config";
import type { UserType } from "../lib/user-type";
import type { FlatRoute, RouteNode } from "./types";

export function joinPath(base: string, path: string): string {
  if (path.startsWith("/")) return path;
  return `${base.replace(/\/+$/, "")}/${path}`;
}

/** Every node of the tree with its absolute path, in tree order (parents before children). */
export function flattenTree(tree: readonly RouteNode[]): FlatRoute[] {
  const out: FlatRoute[] = [];
  const walk = (nodes: readonly RouteNode[], base: string, ancestors: readonly RouteNode[]) => {
    for (const node of nodes) {
      const fullPath = joinPath(base, node.path);
      const chain = [...ancestors, node];
      out.push({ node, fullPath, chain });
      if (node.children) walk(node.children, fullPath, chain);
    }
  };
  walk(tree, "/", []);
  return out;
}

/** The routes that render a page and exist in the variant. */
export function pageRoutes(tree: readonly RouteNode[], variant: Variant): FlatRoute[] {
  return flattenTree(tree).filter((route) => route.node.page && isInVariant(route.chain, variant));
}

const isStatic = (path: string) => !path.includes(":") && !path.includes("*");

function isUnder(path: string, prefix: string): boolean {
  return path.startsWith(`${prefix}/`);
}

/**
 * Paths that have pages beneath them but no page of their own: the groups of the tree ("/app/finance")
 * and the intermediate segments of multi-segment paths ("/app/rcs/message"). Each redirects to its
 * first child. Only paths with at least one parameter-free page beneath are listed.
 */
export function parentPaths(pages: readonly FlatRoute[]): string[] {
  const own = new Set(pages.map((route) => route.fullPath));
  const parents: string[] = [];
  for (const route of pages) {
    if (!isStatic(route.fullPath)) continue;
    const segments = route.fullPath.split("/").filter(Boolean);
    for (let i = 1; i < segments.length; i++) {
      const prefix = `/${segments.slice(0, i).join("/")}`;
      if (!own.has(prefix) && !parents.includes(prefix)) parents.push(prefix);
    }
  }
  return parents;
}

/**
 * Where a parent path redirects: the first page beneath it, in tree order, that the user may see.
 * Pages of an area are only reached from paths inside that area (so /backend never leads to the
 * public /backend/login). Null when the user may see none of them.
 */
export function firstChildPath(
  parent: string,
  pages: readonly FlatRoute[],
  userType: UserType | null,
  variant: Variant,
): string | null {
  const areaNode = pages.find(
    (route) => route.chain[0]?.area && (parent === route.chain[0].path || isUnder(parent, route.chain[0].path)),
  )?.chain[0];
  for (const route of pages) {
    if (!isUnder(route.fullPath, parent) || !isStatic(route.fullPath)) continue;
    if (areaNode && route.chain[0] !== areaNode) continue;
    if (canSeeRoute(userType, route.chain, variant)) return route.fullPath;
  }
  return null;
}

/** Turns the route tree into react-router route objects (one place; see tree.ts). */
import { Outlet, type RouteObject } from "react-router-dom";
import { isInVariant } from "../access";
import { NotFound } from "../components/status";
import type { Variant } from "../lib/config";
import { AreaRoute } from "./AreaRoute";
import { pageRoutes, parentPaths } from "./flatten";
import { RootErrorPage } from "./RootErrorPage";
import { RoutePage } from "./RoutePage";
import { HomeRedirect, ParentRedirect } from "./redirects";
import type { FlatRoute, RouteNode } from "./types";

/** What every route of the tree carries for the layouts (menu selection, titles). */
export interface RouteHandle {
  route: FlatRoute;
}

const within = (path: string, base: string) => path.startsWith(`${base}/`);

function pageRoute(route: FlatRoute): RouteObject {
  const handle: RouteHandle = { route };
  return { path: route.fullPath, element: <RoutePage route={route} />, handle };
}

export function buildRoutes(tree: readonly RouteNode[], variant: Variant): RouteObject[] {
  const pages = pageRoutes(tree, variant);
  const parents = parentPaths(pages);
  const areas = tree.filter((node) => node.area && isInVariant([node], variant));
  const inArea = (path: string) => areas.some((area) => path === area.path || within(path, area.path));
  const redirect = (parent: string): RouteObject => ({
    path: parent,
    element: <ParentRedirect parent={parent} pages={pages} />,
  });

  const children: RouteObject[] = [
    { path: "/", element: <HomeRedirect /> },
    ...pages.filter((route) => !route.chain[0]?.area).map(pageRoute),
    ...parents.filter((parent) => !inArea(parent)).map(redirect),
    ...areas.map(
      (area): RouteObject => ({
        path: area.path,
        element: <AreaRoute area={area} />,
        children: [
          { index: true, element: <ParentRedirect parent={area.path} pages={pages} /> },
          ...pages.filter((route) => route.chain[0] === area).map(pageRoute),
          ...parents.filter((parent) => within(parent, area.path)).map(redirect),
          { path: "*", element: <NotFound /> },
        ],
      }),
    ),
    { path: "*", element: <NotFound /> },
  ];

  return [{ element: <Outlet />, errorElement: <RootErrorPage />, children }];
}

import { createContext, useContext } from "react";
import type { FlatRoute } from "./types";

export const CurrentRouteContext = createContext<FlatRoute | null>(null);

/** The route-tree entry of the page being rendered (its title key, meta, ancestors). */
export function useCurrentRoute(): FlatRoute {
  const route = useContext(CurrentRouteContext);
  if (!route) throw new Error("useCurrentRoute must be used inside a page of the route tree");
  return route;
}

import { createBrowserRouter } from "react-router-dom";
import { config } from "../lib/config";
import { setNavigator } from "../lib/navigation";
import { buildRoutes } from "../routes/build-routes";
import { routeTree } from "../routes/tree";

export const router = createBrowserRouter(buildRoutes(routeTree, config.variant));

// Lets the API client move to a login page without a full reload.
setNavigator((to) => {
  void router.navigate(to, { replace: true });
});

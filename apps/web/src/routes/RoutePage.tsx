import { canSeeRoute } from "../access";
import { Lazy, type LazyModule, lazyModule } from "../components/lazy";
import { Forbidden } from "../components/status";
import { useOptionalSession } from "../features/auth/context/session-context";
import { platformTitleKey } from "../features/auth/session";
import { useBranding } from "../features/website/hooks/use-branding";
import { useDocumentTitle } from "../hooks/use-document-title";
import { config } from "../lib/config";
import { useT } from "../lib/i18n";
import { CurrentRouteContext } from "./route-context";
import type { FlatRoute, PageLoader } from "./types";

const pages = new Map<PageLoader, LazyModule<object>>();

function pageModule(load: PageLoader): LazyModule<object> {
  let page = pages.get(load);
  if (!page) {
    page = lazyModule(load, "page");
    pages.set(load, page);
  }
  return page;
}

/** Renders the lazy page of a route after the access check (403 when the user may not see it). */
export function RoutePage({ route }: { route: FlatRoute }) {
  const t = useT();
  const session = useOptionalSession();
  const branding = useBranding();
  const userType = session?.user.type ?? null;
  const platformKey = route.chain[0]?.area === "backend" && userType !== null ? platformTitleKey(userType) : null;
  const allowed = canSeeRoute(userType, route.chain, config.variant);
  useDocumentTitle(`${allowed ? t(route.node.label) : "403"} - ${platformKey ? t(platformKey) : branding.title}`);

  if (!route.node.page) throw new Error(`route ${route.fullPath} has no page`);
  if (!allowed) return <Forbidden />;
  return (
    <CurrentRouteContext value={route}>
      <Lazy module={pageModule(route.node.page)} />
    </CurrentRouteContext>
  );
}

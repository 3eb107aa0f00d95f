import { canSeeRoute } from "../access";
import { Lazy, type LazyModule, lazyModule } from "../components/lazy";
import { Forbidden } from "../components/status";
import { RequireSession } from "../features/auth/components/RequireSession";
import { useSession } from "../features/auth/context/session-context";
import { config } from "../lib/config";
import type { LayoutKind, RouteNode } from "./types";

export interface AreaLayoutProps {
  area: RouteNode;
}

const layouts: Record<LayoutKind, LazyModule<AreaLayoutProps>> = {
  sidebar: lazyModule(() => import("../layouts/SidebarLayout"), "app"),
  topbar: lazyModule(() => import("../layouts/TopbarLayout"), "app"),
};

function AreaContent({ area }: AreaLayoutProps) {
  const { user } = useSession();
  if (!canSeeRoute(user.type, [area], config.variant)) return <Forbidden />;
  return <Lazy module={layouts[area.layout ?? "sidebar"]} props={{ area }} />;
}

/** An area (/app, /backend, /user): session guard, area access, then its lazily loaded layout. */
export function AreaRoute({ area }: AreaLayoutProps) {
  return (
    <RequireSession>
      <AreaContent area={area} />
    </RequireSession>
  );
}

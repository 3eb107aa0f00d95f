/** 403 and 404 pages, loaded on demand (antd Result carries large illustrations). */
import type { PageLoader } from "../routes/types";
import { Lazy, lazyModule } from "./lazy";

const loadForbidden: PageLoader = () => import("./StatusPage").then((m) => ({ default: m.ForbiddenResult }));
const loadNotFound: PageLoader = () => import("./StatusPage").then((m) => ({ default: m.NotFoundResult }));
const forbidden = lazyModule(loadForbidden, "page");
const notFound = lazyModule(loadNotFound, "page");

export function Forbidden() {
  return <Lazy module={forbidden} />;
}

export function NotFound() {
  return <Lazy module={notFound} />;
}

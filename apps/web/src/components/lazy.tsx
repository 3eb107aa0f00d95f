/**
 * Lazy components with the behaviour of spec sections 2 and 9: a loading indicator that appears after
 * 200 ms, a chunk that fails to load (or takes longer than 120 s) shows a retry button.
 */
import { Alert, Button } from "antd";
import {
  Component,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
  useMemo,
  useState,
} from "react";
import { CHUNK_TIMEOUT_MS } from "../lib/constants";
import { useT } from "../lib/i18n";
import { DelayedLoading } from "./DelayedLoading";

/** A lazily imported chunk did not arrive (network error, or longer than the chunk time-out). */
export class ChunkLoadError extends Error {
  override readonly name = "ChunkLoadError";
  constructor(
    readonly timedOut: boolean,
    cause?: unknown,
  ) {
    super(timedOut ? "chunk load timed out" : "chunk load failed", cause === undefined ? undefined : { cause });
  }
}

/** Runs `load`, rejecting with ChunkLoadError when it fails or takes longer than `timeoutMs`. */
export function loadWithTimeout<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(true)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(false, error));
      },
    );
  });
}

function ChunkFailed({ timedOut, onRetry }: { timedOut: boolean; onRetry: () => void }) {
  const t = useT();
  return (
    <div style={{ maxWidth: 560, margin: "48px auto", padding: "0 16px" }}>
      <Alert
        type="warning"
        showIcon
        title={t(timedOut ? "app.chunkTimeout" : "app.chunkFailed")}
        action={
          <Button type="primary" onClick={onRetry}>
            {t("common.retry")}
          </Button>
        }
      />
    </div>
  );
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

/** Shows a retry for chunk failures; any other error is thrown on to the router's error page. */
class ChunkErrorBoundary extends Component<BoundaryProps, { failed: boolean; error: unknown }> {
  override state: { failed: boolean; error: unknown } = { failed: false, error: null };

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (error instanceof ChunkLoadError) console.warn("a lazily loaded chunk failed", error, info.componentStack);
  }

  override render() {
    const { failed, error } = this.state;
    if (error instanceof ChunkLoadError) return <ChunkFailed timedOut={error.timedOut} onRetry={this.props.onRetry} />;
    if (failed) throw error;
    return this.props.children;
  }
}

export type LoadingKind = "app" | "page";

/**
 * A lazily imported component and its current import attempt. Create it once at module level with
 * `lazyModule` and render it with `<Lazy module={...} />`.
 */
export interface LazyModule<P extends object> {
  readonly load: () => Promise<{ default: ComponentType<P> }>;
  /** 'loading, please wait' for the app shell (full screen), 'page loading' for pages. */
  readonly loading: LoadingKind;
  current: LazyExoticComponent<ComponentType<P>> | null;
}

export function lazyModule<P extends object = object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  loading: LoadingKind,
): LazyModule<P> {
  return { load, loading, current: null };
}

function importAgain<P extends object>(module: LazyModule<P>): LazyExoticComponent<ComponentType<P>> {
  const created = lazy(() =>
    loadWithTimeout(module.load).catch((error: unknown) => {
      // Forget the failed attempt so the next mount (or a retry) imports again.
      if (module.current === created) module.current = null;
      throw error;
    }),
  );
  module.current = created;
  return created;
}

/**
 * Renders a lazy module inside Suspense (delayed loading text) and a retry boundary; a retry imports
 * the chunk again.
 */
export function Lazy<P extends object>({ module, props }: { module: LazyModule<P>; props?: P }) {
  const t = useT();
  const [attempt, setAttempt] = useState(0);
  const Loaded = useMemo(
    () => (attempt === 0 && module.current ? module.current : importAgain(module)),
    [module, attempt],
  );
  const app = module.loading === "app";
  return (
    <ChunkErrorBoundary key={attempt} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<DelayedLoading text={t(app ? "app.loading" : "app.pageLoading")} fullscreen={app} />}>
        <Loaded {...((props ?? {}) as P)} />
      </Suspense>
    </ChunkErrorBoundary>
  );
}

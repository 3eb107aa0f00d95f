/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base address of the API, e.g. http://127.0.0.1:3000 */
  readonly VITE_API_BASE?: string;
  /** "full" (default) or "rcs": the RCS variant hides the WS and SMS groups */
  readonly VITE_VARIANT?: string;
  /** "1": the deployment runs in international mode (requests carry the international flag) */
  readonly VITE_INTERNATIONAL?: string;
  /** "0" stops the agreement modal from opening by itself on the register pages */
  readonly VITE_AGREE_SHOW?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** Configuration the server may inject into index.html before the bundle runs. */
interface SwitchboardRuntimeConfig {
  apiBase?: string;
  variant?: string;
  international?: boolean;
  agreeShow?: boolean;
}

interface Window {
  __SWITCHBOARD_CONFIG__?: SwitchboardRuntimeConfig;
}

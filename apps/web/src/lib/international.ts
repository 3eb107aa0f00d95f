/** International versus domestic mode (DOMAIN.md "Language and modes"). */
import { type AppConfig, config } from "./config";
import { type AppStorage, storage } from "./storage";

/**
 * The international flag sent with every request, or null when the deployment has no international
 * mode (then nothing is sent and the client is in domestic mode).
 */
export function internationalFlag(
  cfg: Pick<AppConfig, "internationalMode"> = config,
  store: Pick<AppStorage, "getInternational"> = storage,
): "1" | "0" | null {
  if (!cfg.internationalMode) return null;
  return store.getInternational() ?? "1";
}

/** Domestic mode: the customer menu then shows the notice entry. */
export function isDomesticMode(
  cfg: Pick<AppConfig, "internationalMode"> = config,
  store: Pick<AppStorage, "getInternational"> = storage,
): boolean {
  return internationalFlag(cfg, store) !== "1";
}

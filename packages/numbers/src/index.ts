export { knownCountries, type NormalizeOptions, type NumberResult, normalizeNumber } from "./normalize";

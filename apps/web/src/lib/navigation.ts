/**
 * Lets code outside React (the API client) change the route. The router registers itself at start;
 * before that (or without a router) a full page load is used.
 */
export type Navigate = (to: string) => void;

let current: Navigate | null = null;

export function setNavigator(navigate: Navigate | null): void {
  current = navigate;
}

export function navigateTo(to: string): void {
  if (current) current(to);
  else window.location.assign(to);
}

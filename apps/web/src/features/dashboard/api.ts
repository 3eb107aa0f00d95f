import type { BackendDashboard, CustomerDashboard } from "@switchboard/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api";

export const dashboardKeys = {
  all: ["dashboard"] as const,
  customer: ["dashboard", "customer"] as const,
  /** One product's figures (the RCS portal's home). */
  customerProduct: (productCode: number) => ["dashboard", "customer", productCode] as const,
  backend: ["dashboard", "backend"] as const,
};

/** GET /dashboard/customer: every product's figures, or one product's (`productCode`, the RCS portal's home). */
export function useCustomerDashboard(productCode?: number) {
  return useQuery({
    queryKey: productCode === undefined ? dashboardKeys.customer : dashboardKeys.customerProduct(productCode),
    queryFn: ({ signal }) =>
      api.get<CustomerDashboard>("/dashboard/customer", {
        params: productCode === undefined ? undefined : { productCode },
        signal,
      }),
  });
}

/** GET /dashboard/backend */
export function useBackendDashboard() {
  return useQuery({
    queryKey: dashboardKeys.backend,
    queryFn: ({ signal }) => api.get<BackendDashboard>("/dashboard/backend", { signal }),
  });
}

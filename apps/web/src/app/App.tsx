import { RouterProvider } from "react-router-dom";
import { createQueryClient } from "../lib/query";
import { AppProviders } from "./providers";
import { router } from "./router";

const queryClient = createQueryClient();

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api";

export interface ChangePasswordBody {
  oldPassword: string;
  newPassword: string;
}

/** POST /user/password/mod */
export function changePassword(body: ChangePasswordBody): Promise<null> {
  return api.post<null>("/user/password/mod", { ...body });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

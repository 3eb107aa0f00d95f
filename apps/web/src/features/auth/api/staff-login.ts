import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { type Credentials, type LoginResult, parseLoginResult } from "./types";

/** POST /auth/staff/login: admins, agents and super admins (/system/login, /backend/login). */
export function staffLogin(body: Credentials): Promise<LoginResult> {
  return api.post<unknown>("/auth/staff/login", { ...body }).then(parseLoginResult);
}

export function useStaffLogin() {
  return useMutation({ mutationFn: staffLogin });
}

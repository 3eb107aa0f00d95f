import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { type Credentials, type LoginResult, parseLoginResult } from "./types";

export interface RegisterBody extends Credentials {
  email?: string;
  phone?: string;
  company?: string;
}

/** POST /auth/register: creates a customer and logs it in (same answer as login). */
export function register(body: RegisterBody): Promise<LoginResult> {
  return api.post<unknown>("/auth/register", { ...body }).then(parseLoginResult);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}

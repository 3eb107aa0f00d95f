// Notice calls: customers read published notices; admins manage them.
import type { NoticeCreateBody, NoticeDetail, NoticeEditBody, NoticeRow, NoticeSummary } from "@switchboard/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";

export const noticeKeys = {
  all: ["notice"] as const,
  list: (params: Record<string, string | number>) => ["notice", "list", params] as const,
  detail: (id: number) => ["notice", "detail", id] as const,
  manage: (params: Record<string, string | number>) => ["notice", "manage", params] as const,
};

export function useNoticeList(params: Record<string, string | number>) {
  return useQuery({
    queryKey: noticeKeys.list(params),
    queryFn: ({ signal }) => api.getList<NoticeSummary>("/notice/list", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useNoticeDetail(id: number | null) {
  return useQuery({
    queryKey: noticeKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<NoticeDetail>("/notice/detail", { params: { id: id ?? 0 }, signal }),
    enabled: id !== null,
  });
}

export function useManagedNotices(params: Record<string, string | number>) {
  return useQuery({
    queryKey: noticeKeys.manage(params),
    queryFn: ({ signal }) => api.getList<NoticeRow>("/notice/manage/list", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

function useNoticeMutation<TVars, TResult>(call: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticeKeys.all }),
  });
}

export const useCreateNotice = () =>
  useNoticeMutation((body: NoticeCreateBody) => api.post<NoticeRow>("/notice/create", body));
export const useEditNotice = () =>
  useNoticeMutation((body: NoticeEditBody) => api.post<NoticeRow>("/notice/edit", body));
export const usePublishNotice = () => useNoticeMutation((id: number) => api.post<NoticeRow>("/notice/publish", { id }));
export const useWithdrawNotice = () =>
  useNoticeMutation((id: number) => api.post<NoticeRow>("/notice/withdraw", { id }));
export const useDeleteNotice = () =>
  useNoticeMutation((id: number) => api.post<{ id: number }>("/notice/delete", { id }));

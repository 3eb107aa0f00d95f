import { useQuery } from "@tanstack/react-query";
import { Select } from "antd";
import { useEffect, useState } from "react";
import { batchKeys, searchCustomers } from "../api";

/**
 * Staff: one customer of the caller's scope, searched by name as typed (the batch lists' customer filter, the
 * opt-out list's customer). A chosen id the search does not list shows as `#id`.
 */
export function CustomerSelect({
  value,
  onChange,
  placeholder,
  label,
  width,
  testId,
}: {
  value?: string;
  onChange: (v: string | undefined) => void;
  placeholder: string;
  label: string;
  width: number;
  testId: string;
}) {
  const [keyword, setKeyword] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(keyword.trim()), 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const query = useQuery({
    queryKey: batchKeys.customers(debounced),
    queryFn: ({ signal }) => searchCustomers(debounced, signal),
  });
  const options = (query.data?.list ?? []).map((u) => ({
    value: String(u.id),
    label: u.nickname ? `${u.user} (${u.nickname})` : u.user,
  }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: `#${value}` });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      options={options}
      loading={query.isFetching}
      placeholder={placeholder}
      aria-label={label}
      style={{ width }}
      data-testid={testId}
    />
  );
}

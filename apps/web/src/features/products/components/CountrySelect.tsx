import type { CountryItem } from "@switchboard/contracts";
import { Select } from "antd";
import { useMemo } from "react";
import { useCountries } from "../api";
import { messages } from "../messages";

export interface CountrySelectProps {
  value?: string[];
  onChange?: (value: string[]) => void;
  /** Only these countries may be chosen (e.g. the ones a product serves). */
  allow?: (country: CountryItem) => boolean;
  id?: string;
  disabled?: boolean;
  "data-testid"?: string;
  "aria-invalid"?: boolean;
}

const dial = (code: string) => `+${code.replace(/^\+/, "")}`;

export function countryLabel(c: CountryItem): string {
  return `${c.name} (${c.code} ${dial(c.dialCode)})`;
}

/** Multiple countries by name, ISO code or dial code; the list comes from /country/list. */
export function CountrySelect({ value, onChange, allow, id, disabled, ...rest }: CountrySelectProps) {
  const t = messages.useT();
  const countries = useCountries();
  const options = useMemo(
    () =>
      (countries.data?.list ?? [])
        .filter((c) => !allow || allow(c))
        .map((c) => ({
          value: c.code,
          label: countryLabel(c),
          search: `${c.code} ${dial(c.dialCode)} ${c.nameEn} ${c.nameZh}`,
        })),
    [countries.data, allow],
  );
  return (
    <Select
      id={id}
      mode="multiple"
      allowClear
      disabled={disabled}
      value={value}
      onChange={onChange}
      options={options}
      loading={countries.isLoading}
      placeholder={t("countries.placeholder")}
      notFoundContent={countries.isError ? t("countries.loadFailed") : undefined}
      showSearch={{
        filterOption: (input, option) =>
          `${option?.label ?? ""} ${option?.search ?? ""}`.toLowerCase().includes(input.trim().toLowerCase()),
      }}
      maxTagCount="responsive"
      data-testid={rest["data-testid"]}
      aria-invalid={rest["aria-invalid"]}
    />
  );
}

import { CountryScope } from "@switchboard/contracts/codes";
import { Form, Radio } from "antd";
import { messages } from "../messages";
import { CountrySelect } from "./CountrySelect";

/** Scope 1 all / 2 only the listed / 3 all but the listed, and the list for 2 and 3 (at least one). */
export function CountryScopeFields({ testId = "country-scope" }: { testId?: string }) {
  const t = messages.useT();
  const form = Form.useFormInstance();
  const scope = Form.useWatch("countryScope", form) ?? CountryScope.ALL;
  return (
    <>
      <Form.Item name="countryScope" label={t("field.countryScope")} initialValue={CountryScope.ALL}>
        <Radio.Group
          options={[CountryScope.ALL, CountryScope.INCLUDE, CountryScope.EXCLUDE].map((s) => ({
            value: s,
            label: t(`scope.${s}`),
          }))}
          data-testid={`${testId}-scope`}
        />
      </Form.Item>
      {scope !== CountryScope.ALL && (
        <Form.Item
          name="countryCodes"
          label={t("field.countryCodes")}
          rules={[{ required: true, type: "array", min: 1, message: t("field.countriesRequired") }]}
        >
          <CountrySelect data-testid={`${testId}-countries`} />
        </Form.Item>
      )}
    </>
  );
}

/** "All countries", "12 countries", "All countries (3 excluded)". */
export function useScopeSummary() {
  const t = messages.useT();
  return (scope: number, codes: readonly string[]) =>
    scope === CountryScope.ALL
      ? t("scope.summary.1")
      : t(scope === CountryScope.INCLUDE ? "scope.summary.2" : "scope.summary.3", { count: codes.length });
}

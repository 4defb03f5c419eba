/**
 * Countries (ISO 3166-1 alpha-2) and the regions the shop tells apart inside some of them (US
 * states, Canadian provinces and territories, Australian states and territories: their taxes and
 * shipping zones differ). Names are the runtime's own (Intl.DisplayNames), so server and browser
 * write the same ones.
 */

/** Every officially assigned ISO 3166-1 alpha-2 code. */
export const COUNTRY_CODES =
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT
BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM
FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO
JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT
MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA
SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US
UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/);

const KNOWN = new Set(COUNTRY_CODES);

/**
 * A country code as the shop stores it: upper case, and "UK" (what the shop's first checkout wrote
 * for the United Kingdom) read as "GB". Null for anything that is not a country.
 */
export function countryCode(value: string | null | undefined): string | null {
  const code = (value ?? "").trim().toUpperCase();
  const normal = code === "UK" ? "GB" : code;
  return KNOWN.has(normal) ? normal : null;
}

const names = (() => {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" });
  } catch {
    return null;
  }
})();

/** "DE" → "Germany"; an unknown code is returned as it is. */
export function countryName(code: string): string {
  const normal = countryCode(code);
  if (!normal) return code;
  return names?.of(normal) ?? normal;
}

/** What an address form posts for a country where it is not the ISO code: the spec's "UK". */
export const COUNTRY_OPTION_VALUES: Readonly<Record<string, string>> = { GB: "UK" };

export interface Region {
  code: string;
  name: string;
}

const list = (entries: string): Region[] =>
  entries.split("|").map((entry) => {
    const [code, name] = entry.split(":") as [string, string];
    return { code, name };
  });

/** The regions the shop tells apart, per country. */
export const REGIONS: Readonly<Record<string, readonly Region[]>> = {
  US: list(
    "AL:Alabama|AK:Alaska|AZ:Arizona|AR:Arkansas|CA:California|CO:Colorado|CT:Connecticut|DE:Delaware|" +
      "DC:District of Columbia|FL:Florida|GA:Georgia|HI:Hawaii|ID:Idaho|IL:Illinois|IN:Indiana|IA:Iowa|" +
      "KS:Kansas|KY:Kentucky|LA:Louisiana|ME:Maine|MD:Maryland|MA:Massachusetts|MI:Michigan|MN:Minnesota|" +
      "MS:Mississippi|MO:Missouri|MT:Montana|NE:Nebraska|NV:Nevada|NH:New Hampshire|NJ:New Jersey|" +
      "NM:New Mexico|NY:New York|NC:North Carolina|ND:North Dakota|OH:Ohio|OK:Oklahoma|OR:Oregon|" +
      "PA:Pennsylvania|RI:Rhode Island|SC:South Carolina|SD:South Dakota|TN:Tennessee|TX:Texas|UT:Utah|" +
      "VT:Vermont|VA:Virginia|WA:Washington|WV:West Virginia|WI:Wisconsin|WY:Wyoming",
  ),
  CA: list(
    "AB:Alberta|BC:British Columbia|MB:Manitoba|NB:New Brunswick|NL:Newfoundland and Labrador|" +
      "NS:Nova Scotia|NT:Northwest Territories|NU:Nunavut|ON:Ontario|PE:Prince Edward Island|QC:Quebec|" +
      "SK:Saskatchewan|YT:Yukon",
  ),
  AU: list(
    "ACT:Australian Capital Territory|NSW:New South Wales|NT:Northern Territory|QLD:Queensland|" +
      "SA:South Australia|TAS:Tasmania|VIC:Victoria|WA:Western Australia",
  ),
};

const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[.\s]+/g, " ")
    .trim()
    .toLowerCase();

/**
 * The region a shopper typed, as its code: "ca", "California" and "california " are all "CA" in
 * the US. Null when the country has no regions the shop tells apart, or the text names none.
 */
export function regionCode(country: string, typed: string | null | undefined): string | null {
  const regions = REGIONS[countryCode(country) ?? ""];
  if (!regions || !typed) return null;
  const wanted = fold(typed);
  return regions.find((r) => fold(r.code) === wanted || fold(r.name) === wanted)?.code ?? null;
}

export function regionName(country: string, code: string): string {
  return REGIONS[countryCode(country) ?? ""]?.find((r) => r.code === code)?.name ?? code;
}

/**
 * ISO 3166-1 alpha-2: the 249 officially assigned country codes (as published in Debian's
 * iso-codes 4.15, which tracks the ISO 3166 Maintenance Agency). Embedded rather than taken
 * from an npm package: it is one short constant, changes a few times a decade, and saves a
 * dependency. User-assigned codes (XK, XA…, ZZ) and reserved ones (UK, EU) are not in it.
 */
const CODES: string = [
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE',
  'BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD',
  'CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM',
  'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF',
  'GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU',
  'ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN',
  'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME',
  'MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA',
  'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM',
  'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI',
  'SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK',
  'TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI',
  'VN VU WF WS YE YT ZA ZM ZW',
].join(' ');

/** Upper-case alpha-2 codes; membership is one Set look-up on the hot path. */
export const ISO_3166_1_ALPHA2: ReadonlySet<string> = new Set(CODES.split(' '));

/** The canonical (upper-case) code for `value`, or null when it names no assigned country. */
export function canonicalCountry(value: string): string | null {
  // ASCII letters only: toUpperCase alone would turn "ıt" (dotless i) into "IT".
  if (value.length !== 2 || !isAsciiLetter(value.charCodeAt(0)) || !isAsciiLetter(value.charCodeAt(1))) {
    return null;
  }
  const upper = value.toUpperCase();
  return ISO_3166_1_ALPHA2.has(upper) ? upper : null;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

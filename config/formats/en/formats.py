"""English dates in words, read alike in the UK and the US: "3 November 2026", never "11/03/2026"
(3 November to an American, 11 March to a British teacher). Formats not named here are Django's."""

DATE_FORMAT = "j F Y"  # 3 November 2026
DATETIME_FORMAT = "j F Y, P"  # 3 November 2026, 2:30 p.m.
SHORT_DATE_FORMAT = "j M Y"  # 3 Nov 2026
SHORT_DATETIME_FORMAT = "j M Y, P"  # 3 Nov 2026, 2:30 p.m.
MONTH_DAY_FORMAT = "j F"  # 3 November

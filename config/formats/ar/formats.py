"""Arabic dates in words: "3 نوفمبر 2026" (the month is never shortened in Arabic, and never
"03/11/2026"). Formats not named here are Django's. Which digits show (Western or Eastern Arabic)
is the school's choice, applied where the page is drawn, not here."""

DATE_FORMAT = "j F Y"  # 3 نوفمبر 2026
DATETIME_FORMAT = "j F Y، H:i"  # 3 نوفمبر 2026، 14:30
SHORT_DATE_FORMAT = "j F Y"
SHORT_DATETIME_FORMAT = "j F Y، H:i"
MONTH_DAY_FORMAT = "j F"  # 3 نوفمبر

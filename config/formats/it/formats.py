"""Italian dates in words: "3 novembre 2026", short "3 nov 2026" (never "03/11/2026").
Formats not named here are Django's (decimal comma, a point between thousands)."""

DATE_FORMAT = "j F Y"  # 3 novembre 2026
DATETIME_FORMAT = "j F Y, H:i"  # 3 novembre 2026, 14:30
SHORT_DATE_FORMAT = "j b Y"  # 3 nov 2026 (b: the short month in lower case)
SHORT_DATETIME_FORMAT = "j b Y, H:i"  # 3 nov 2026, 14:30
MONTH_DAY_FORMAT = "j F"  # 3 novembre

"""German dates in words: "3. November 2026", short "3. Nov. 2026" (never "03.11.2026").
Formats not named here are Django's (decimal comma, a point between thousands)."""

DATE_FORMAT = "j. F Y"  # 3. November 2026
DATETIME_FORMAT = "j. F Y, H:i"  # 3. November 2026, 14:30
SHORT_DATE_FORMAT = "j. N Y"  # 3. Nov. 2026
SHORT_DATETIME_FORMAT = "j. N Y, H:i"  # 3. Nov. 2026, 14:30
MONTH_DAY_FORMAT = "j. F"  # 3. November

"""Portuguese dates in words: "3 de novembro de 2026", short "3 nov 2026" (never "03/11/2026").
Formats not named here are Django's (decimal comma, a point between thousands)."""

DATE_FORMAT = r"j \d\e F \d\e Y"  # 3 de novembro de 2026
DATETIME_FORMAT = r"j \d\e F \d\e Y, H:i"  # 3 de novembro de 2026, 14:30
SHORT_DATE_FORMAT = "j b Y"  # 3 nov 2026 (b: the short month in lower case)
SHORT_DATETIME_FORMAT = "j b Y, H:i"  # 3 nov 2026, 14:30
MONTH_DAY_FORMAT = r"j \d\e F"  # 3 de novembro

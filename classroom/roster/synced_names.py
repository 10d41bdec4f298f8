"""The one rule for a name that comes from a school's own system (an OneRoster file, a learning
platform's class list) and that the teacher may also change here."""


def source_name_to_take(*, incoming: str, imported: str, current: str) -> str | None:
    """The name to set from the source's ``incoming`` one, or None to keep ``current``.

    ``imported`` is the name the source gave last time, kept beside its link. The source's name is
    taken only when it changed there and the name here is still the one it gave: a name the
    teacher changed here is never overwritten, and a source that sends no name changes nothing.
    Either way the caller keeps ``incoming`` as the imported name for next time."""
    if incoming and incoming != imported and current == imported:
        return incoming
    return None

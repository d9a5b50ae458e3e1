"""Due dates as instants: the one parser every way the course takes a date goes through.

A due date is written as a date and a time with its zone: ``2026-12-04 17:00 UTC``, ``2026-12-04 17:00:00 +0100``,
``2026-12-04T17:00+01:00``, ``2026-12-04 17:00 Europe/Paris`` (any name of the tz database). `parse_instant` reads
it as the instant it names, in UTC, and refuses anything else with `DateError` saying why: a date without a zone
(whose instant depends on the machine that reads it), a zone it does not know, a local time that a zone skips or
repeats when its clocks change.

nbgrader's own reader (``nbgrader.utils.parse_utc``) reads ``+0100`` as an offset of 100 *seconds* and drops
``+01:00`` altogether; `guard_nbgrader` (called by the course's ``nbgrader_config.py``) makes ``nbgrader db
assignment add --duedate`` read its date with `parse_instant` instead, before anything is stored.
"""

from __future__ import annotations

import datetime
import re
import zoneinfo

UTC = datetime.timezone.utc
EXAMPLES = "2026-12-04 17:00 UTC, 2026-12-04 17:00 +01:00 or 2026-12-04 17:00 Europe/Paris"
_DATE = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})[T ]+(?P<time>\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)\s*(?P<zone>.*)")
_OFFSET = re.compile(r"(?P<sign>[+-])(?P<hours>\d{2})(?::?(?P<minutes>\d{2}))?")


class DateError(ValueError):
    """A date the course cannot read as one instant, with the reason in plain words."""


def parse_instant(text: str) -> datetime.datetime:
    """The instant `text` names, as an aware datetime in UTC; `DateError` when it does not name exactly one."""
    if isinstance(text, datetime.datetime):
        if text.tzinfo is None:
            raise DateError(f"the date {text.isoformat()} has no zone: give its zone ({EXAMPLES})")
        return text.astimezone(UTC)
    written = str(text).strip()
    m = _DATE.fullmatch(written)
    if not m:
        raise DateError(f"cannot read {written!r} as a date and time with its zone (write it as {EXAMPLES})")
    try:
        hours, rest = m["time"].split(":", 1)
        local = datetime.datetime.fromisoformat(f"{m['date']} {int(hours):02d}:{rest}")
    except ValueError as exc:
        raise DateError(f"{written!r} is not a real date and time ({exc})") from None
    zone = m["zone"].strip()
    if not zone:
        raise DateError(f"the date {written!r} has no zone, so its instant depends on the machine that reads it: "
                        f"write its zone ({EXAMPLES})")
    return _in_zone(local, zone, written)


def _in_zone(local: datetime.datetime, zone: str, written: str) -> datetime.datetime:
    if zone in ("Z", "UTC", "GMT"):
        return local.replace(tzinfo=UTC)
    offset = _OFFSET.fullmatch(zone)
    if offset:
        hours, minutes = int(offset["hours"]), int(offset["minutes"] or 0)
        if hours > 14 or minutes > 59:
            raise DateError(f"{zone!r} in {written!r} is not a UTC offset (offsets run from -14:00 to +14:00)")
        delta = datetime.timedelta(hours=hours, minutes=minutes) * (-1 if offset["sign"] == "-" else 1)
        return local.replace(tzinfo=datetime.timezone(delta)).astimezone(UTC)
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise DateError(f"unknown zone {zone!r} in {written!r}: give an offset (+01:00) or a zone name of the tz "
                        "database (Europe/Paris, America/New_York, UTC)") from None
    first, second = local.replace(tzinfo=tz, fold=0), local.replace(tzinfo=tz, fold=1)
    if first.utcoffset() != second.utcoffset():
        skipped = first.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != local
        what = "does not exist there (the clocks skip it)" if skipped else "happens twice there (the clocks go back)"
        raise DateError(f"{local:%Y-%m-%d %H:%M} in {zone} {what}: give the offset instead, for example "
                        f"{local:%Y-%m-%d %H:%M} {_offset_text(first)}")
    return first.astimezone(UTC)


def _offset_text(when: datetime.datetime) -> str:
    minutes = int(when.utcoffset().total_seconds() // 60)
    return f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def gradebook_value(text: str) -> datetime.datetime:
    """The instant `text` names as nbgrader's gradebook keeps a date: naive, in UTC."""
    return parse_instant(text).replace(tzinfo=None)


def shown(when: datetime.datetime) -> str:
    """An instant as the course prints it: ``2026-12-04 16:00:00 UTC`` (a naive datetime is taken as UTC, as
    nbgrader's gradebook keeps it)."""
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return f"{when:%Y-%m-%d %H:%M:%S} UTC"


def guard_nbgrader() -> None:
    """Make ``nbgrader db assignment add --duedate TEXT`` read TEXT with `parse_instant`, and refuse (exit 1, with
    the reason) a date it cannot read before anything is stored; called from the course's ``nbgrader_config.py``.

    nbgrader reads a due date with ``nbgrader.utils.parse_utc`` when it stores it; the text is replaced by the
    instant in UTC (``2026-12-04 16:00:00 UTC``), which that reader reads right."""
    from nbgrader.apps.dbapp import DbAssignmentAddApp

    if getattr(DbAssignmentAddApp.start, "course_guard", False):
        return
    start = DbAssignmentAddApp.start

    def guarded(self) -> None:
        if self.duedate is not None:
            try:
                self.duedate = shown(parse_instant(self.duedate))
            except DateError as exc:
                self.fail(f"--duedate: {exc}")
        start(self)

    guarded.course_guard = True
    DbAssignmentAddApp.start = guarded

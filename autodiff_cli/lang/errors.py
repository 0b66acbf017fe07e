"""`ScriptError` (every failure of a script) and the locations compiled code attaches to errors."""

from __future__ import annotations

import re
from collections.abc import Callable

try:
    import unicodedata
except ImportError:  # a Python built without it: wide characters by their ranges
    unicodedata = None  # type: ignore[assignment]

# Name of the attribute that carries a `Location` on an exception raised while a script runs.
LOCATION_ATTRIBUTE = "_autodiff_location"
# Name of the attribute that carries a `ReportHint` (a NameError's "Did you mean").
HINT_ATTRIBUTE = "_autodiff_hint"


class Source:
    """A compiled source text: errors found at run time quote their line from it."""

    __slots__ = ("filename", "lines")

    def __init__(self, filename: str, lines: tuple[str, ...]) -> None:
        self.filename = filename
        self.lines = lines

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


class Location:
    """Where a statement or expression starts (1-based line and column)."""

    __slots__ = ("source", "line", "column")

    def __init__(self, source: Source, line: int, column: int) -> None:
        self.source = source
        self.line = line
        self.column = column

    def __repr__(self) -> str:
        return f"Location({self.source.filename!r}, {self.line}, {self.column})"


class Span(Location):
    """A Location that also knows where its expression's last token ends, so that the text of
    the operation can be quoted (`w*x`) beside the graph node it made (`provenance`)."""

    __slots__ = ("end_line", "end_column")

    def __init__(
        self, source: Source, line: int, column: int, end_line: int, end_column: int
    ) -> None:
        super().__init__(source, line, column)
        self.end_line = end_line
        self.end_column = end_column


def spanned(start: Location, last: object) -> Location:
    """`start` as a `Span` ending where the last token of the parse-tree node `last` ends (a
    call's closing bracket has no token: `provenance` completes brackets), or as it is."""
    while hasattr(last, "children"):  # a Tree: its last child that is present
        children = [child for child in last.children if child is not None]
        last = children[-1] if children else None
    end_line, end_column = getattr(last, "end_line", None), getattr(last, "end_column", None)
    if end_line is None or end_column is None:
        return start
    return Span(start.source, start.line, start.column, end_line, end_column)


class ScriptError(Exception):
    """A syntax or runtime error of a script, located in its source.

    `type_name` is the Python exception name (`SyntaxError`, `RuntimeError`, ...) and `message`
    its text; a runtime error keeps the original exception as `__cause__`.
    """

    def __init__(
        self,
        type_name: str,
        message: str,
        filename: str,
        line: int,
        column: int,
        source_line: str = "",
    ) -> None:
        self.type_name = type_name
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column
        self.source_line = source_line
        super().__init__(self.__str__())

    @property
    def is_syntax_error(self) -> bool:
        return self.type_name == "SyntaxError"

    def __str__(self) -> str:
        header = printable(f"{self.filename}:{self.line}:{self.column}: error")
        text = f"{self.type_name}: {self.message}" if self.message else self.type_name
        text = printable(text, keep_newlines=True)
        shown = _printable(self.source_line.rstrip("\r\n"))
        if not shown.strip():
            return f"{header}\n{text}"
        caret = caret_padding(shown[: max(self.column - 1, 0)])
        return f"{header}\n    {shown}\n    {caret}^\n{text}"

    @classmethod
    def at(cls, location: Location, type_name: str, message: str) -> ScriptError:
        return cls(
            type_name,
            message,
            location.source.filename,
            location.line,
            location.column,
            location.source.line(location.line),
        )

    @classmethod
    def from_exception(cls, error: BaseException, fallback: Location | None) -> ScriptError:
        """The ScriptError for an exception escaping a script, at its innermost location."""
        location = _own_attributes(error).get(LOCATION_ATTRIBUTE) or fallback
        type_name = type(error).__name__
        message = error_message(error)
        hint = _own_attributes(error).get(HINT_ATTRIBUTE)
        if type(hint) is ReportHint:
            message += hint.text()
        if location is None:
            result = cls(type_name, message, "<script>", 0, 0)
        else:
            try:
                result = cls.at(location, type_name, message)
            except MemoryError:  # the script holds nearly all it may: no copy of a long line
                source = location.source.filename
                result = cls(type_name, message, source, location.line, location.column)
        result.__cause__ = error
        return result


# How CPython reports a C function that failed without raising: mostly an allocation it could
# not make (the memory limit), in code that forgot to raise MemoryError.
_SILENT_FAILURES = ("error return without exception set", "without setting an exception")
_SILENT_FAILURE_HINT = " (a failure Python did not explain: most often memory ran out)"


def error_message(error: BaseException) -> str:
    """An exception's text, as `str` gives it safely; a MemoryError's own has none."""
    message = safe_str(error)
    if not message and issubclass(type(error), MemoryError):
        message = "out of memory (an allocation failed)"
    elif type(error) is SystemError and message.endswith(_SILENT_FAILURES):
        message += _SILENT_FAILURE_HINT
    return message


_EXCEPTION_DICT = BaseException.__dict__["__dict__"]  # the real instance dictionary
_RAISED_BY_SCRIPT = "_autodiff_raised_by_script"
MAX_MESSAGE_LENGTH = 20_000


def _own_attributes(error: BaseException) -> dict:
    """The exception's instance dictionary, read without running any code of its class (a
    script class may define properties, `__getattribute__` or `__setattr__`)."""
    return _EXCEPTION_DICT.__get__(error)


class ReportHint:
    """Text added to an error's report, worked out only when the error is reported (a script
    that catches the error pays nothing, and its `str()` stays Python's)."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], str]) -> None:
        self._make = make

    def text(self) -> str:
        try:
            return self._make()
        except Exception:  # noqa: BLE001 - a hint never stands in the way of the report
            return ""


def attach_location(error: BaseException, location: Location) -> None:
    """Record where `error` happened, unless an inner statement or expression already did.

    With no memory left to record it (the script filled its memory limit), the error goes on
    unlocated: a MemoryError raised here would replace it, the next level up would fail the
    same way on that one, and a chain of them held by `__context__` exhausts CPython's spare
    MemoryError objects, which ends the process ("Cannot recover from MemoryErrors").

    CPython 3.11 chains such MemoryErrors itself, too: when unwinding cannot allocate a frame's
    traceback entry, the new MemoryError's `__context__` is the one unwinding. Once its 16
    spare MemoryErrors are all held by such a chain, the next one recurses in C until the
    stack overflows (SIGSEGV: tests/hostile/memory_full_then_deep_calls.ad). Each statement's
    handler cuts the chain here, so the spares come back."""
    if type(error) is MemoryError and type(error.__context__) is MemoryError:
        error.__context__ = None
    try:
        _own_attributes(error).setdefault(LOCATION_ATTRIBUTE, location)
    except MemoryError:
        pass


def has_location(error: BaseException) -> bool:
    """Whether a statement or expression of the script already recorded where `error` happened."""
    return LOCATION_ATTRIBUTE in _own_attributes(error)


def set_location(error: BaseException, location: Location) -> None:
    """Record where `error` was raised (a `raise` statement), replacing an older location."""
    _own_attributes(error)[LOCATION_ATTRIBUTE] = location


def clear_location(error: BaseException) -> None:
    _own_attributes(error).pop(LOCATION_ATTRIBUTE, None)


def clear_location_in(error: BaseException, source: Source) -> None:
    """Forget `error`'s location if it is in `source` (an `eval` string: the error is then
    located at the script's `eval` call instead)."""
    location = _own_attributes(error).get(LOCATION_ATTRIBUTE)
    if type(location) in (Location, Span) and location.source is source:
        clear_location(error)


def mark_raised_by_script(error: BaseException) -> None:
    """Note that a script's `raise` raised `error` (a KeyboardInterrupt so raised is an error of
    the script, not the user's Ctrl-C)."""
    _own_attributes(error)[_RAISED_BY_SCRIPT] = True


def is_user_interrupt(error: BaseException) -> bool:
    """A KeyboardInterrupt from Ctrl-C (or `request_interrupt`), which ends a run as Python's
    does; any other BaseException leaving a script is an error of the script."""
    return issubclass(type(error), KeyboardInterrupt) and not _own_attributes(error).get(
        _RAISED_BY_SCRIPT
    )  # `type(error)`: `isinstance` would ask a script class's `__class__`


def safe_str(error: BaseException) -> str:
    """`str(error)` for the report: a `__str__` (or an argument's `__repr__`) that fails, or
    returns something else than text, gives Python's own placeholder; very long text is cut."""
    try:
        text = str(error)
        if type(text) is not str:
            raise TypeError
    except BaseException:  # noqa: BLE001 - whatever the script's code raised
        return "<exception str() failed>"
    if len(text) > MAX_MESSAGE_LENGTH:
        text = f"{text[:MAX_MESSAGE_LENGTH]}... ({len(text) - MAX_MESSAGE_LENGTH} more characters)"
    return text


class CompileError(Exception):
    """A syntax error found after parsing (while resolving names or compiling)."""

    def __init__(self, message: str, location: Location) -> None:
        super().__init__(message)
        self.location = location


def printable(text: str, keep_newlines: bool = False) -> str:
    r"""`text` with control characters (ESC, CR, BEL...; newlines unless `keep_newlines`) shown
    as escapes, so a message cannot act on the terminal it is printed to.

    Escapes are written as Python's repr writes them (`\x1b`, `\r`, `\u2028`, `\U000e0001`):
    the runs between backslashes, quotes, tabs and newlines go through `repr`, which escapes
    exactly what `str.isprintable` refuses. Linear and at C speed, whatever the text (never one
    object per character)."""
    if text.isprintable():
        return text
    if _REPR_SPECIAL.sub("", text).isprintable():  # only tabs and newlines to keep or escape
        return text if keep_newlines else text.replace("\n", "\\n")
    parts = _REPR_SPECIAL.split(text)  # runs, each followed by one special character
    for index in range(0, len(parts), 2):
        run = parts[index]
        if run and not run.isprintable():
            parts[index] = repr(run)[1:-1]
    if not keep_newlines:
        for index in range(1, len(parts), 2):
            if parts[index] == "\n":
                parts[index] = "\\n"
    return "".join(parts)


_REPR_SPECIAL = re.compile(r"([\\'\"\t\n])")  # kept as they are by `printable`


def caret_padding(prefix: str) -> str:
    """What goes before a caret under the character after `prefix`: a tab for a tab, two
    spaces for a wide character (Chinese, Japanese, fullwidth forms take two columns on a
    terminal), none for a combining mark, one space for anything else."""
    if prefix.isascii():
        return "\t".join(" " * len(part) for part in prefix.split("\t"))
    return "".join("\t" if char == "\t" else " " * display_width(char) for char in prefix)


# East Asian Wide and Fullwidth blocks, for a process that cannot import `unicodedata` (a
# locked-down child imports nothing): Hangul Jamo, CJK and Kana to Yi, Hangul syllables, CJK
# compatibility, vertical and fullwidth forms, emoji, CJK extensions
_WIDE_RANGES = (
    (0x1100, 0x115F), (0x2E80, 0x303E), (0x3041, 0x33FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
    (0xA000, 0xA4CF), (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFF60),
    (0xFFE0, 0xFFE6), (0x1F300, 0x1F64F), (0x1F900, 0x1F9FF), (0x20000, 0x3FFFD),
)  # fmt: skip


def display_width(char: str) -> int:
    """The columns one character takes on a terminal: 2 (wide), 0 (combining) or 1."""
    if unicodedata is None:
        code = ord(char)
        return 2 if any(low <= code <= high for low, high in _WIDE_RANGES) else 1
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


# C0 controls but the tab, and DEL: what `_printable` replaces
_CONTROLS = {code: "\ufffd" for code in (*range(0x20), 0x7F) if code != 0x09}


def _printable(line: str) -> str:
    """The source line as shown under an error: control characters (a terminal would act on them)
    become U+FFFD, one for one, so the caret keeps its column (at C speed: a hostile script's
    line may be megabytes long)."""
    return line.translate(_CONTROLS)

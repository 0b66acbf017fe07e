"""`ScriptError` (every failure of a script) and the locations compiled code attaches to errors."""

from __future__ import annotations

# Name of the attribute that carries a `Location` on an exception raised while a script runs.
LOCATION_ATTRIBUTE = "_autodiff_location"


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
        header = f"{self.filename}:{self.line}:{self.column}: error"
        text = f"{self.type_name}: {self.message}" if self.message else self.type_name
        shown = _printable(self.source_line.rstrip("\r\n"))
        if not shown.strip():
            return f"{header}\n{text}"
        prefix = shown[: max(self.column - 1, 0)]
        caret = "".join("\t" if char == "\t" else " " for char in prefix)
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
        location = getattr(error, LOCATION_ATTRIBUTE, None) or fallback
        type_name = type(error).__name__
        message = str(error)
        if location is None:
            result = cls(type_name, message, "<script>", 0, 0)
        else:
            result = cls.at(location, type_name, message)
        result.__cause__ = error
        return result


def attach_location(error: BaseException, location: Location) -> None:
    """Record where `error` happened, unless an inner statement or expression already did."""
    if getattr(error, LOCATION_ATTRIBUTE, None) is None:
        try:
            setattr(error, LOCATION_ATTRIBUTE, location)
        except (AttributeError, TypeError):  # an exception type without a __dict__
            pass


def set_location(error: BaseException, location: Location) -> None:
    """Record where `error` was raised (a `raise` statement), replacing an older location."""
    try:
        setattr(error, LOCATION_ATTRIBUTE, location)
    except (AttributeError, TypeError):
        pass


class CompileError(Exception):
    """A syntax error found after parsing (while resolving names or compiling)."""

    def __init__(self, message: str, location: Location) -> None:
        super().__init__(message)
        self.location = location


def _printable(line: str) -> str:
    """The source line as shown under an error: control characters (a terminal would act on them)
    become U+FFFD, one for one, so the caret keeps its column."""
    return "".join(
        char if char == "\t" or (char >= " " and char != "\x7f") else "\ufffd" for char in line
    )

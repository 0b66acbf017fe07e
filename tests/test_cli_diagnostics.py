"""How a failure outside a script's own statements is reported (cli/output/diagnostics.py)."""

from __future__ import annotations

from autodiff_cli.cli.output import diagnostics


def test_a_memory_error_without_text_says_what_happened(capsys) -> None:
    # Python's own MemoryError has no text: a limit hit while the run is being set up or
    # reported must still say what happened (tests/hostile/cap_trace_long_lines.ad)
    diagnostics.report_exception(MemoryError(), debug=False, context="s.ad")
    assert capsys.readouterr().err.splitlines() == [
        "s.ad: error",
        "MemoryError: out of memory (an allocation failed)",
    ]


def test_other_errors_keep_their_text(capsys) -> None:
    diagnostics.report_exception(ValueError("bad value"), debug=False, context="s.ad")
    assert capsys.readouterr().err.splitlines() == ["s.ad: error", "ValueError: bad value"]


def test_an_error_stays_located_when_its_source_line_cannot_be_copied(monkeypatch) -> None:
    from autodiff_cli.lang.errors import Location, ScriptError, Source

    def no_memory(self, line):  # the script holds nearly all the memory it may use
        raise MemoryError

    where = Location(Source("s.ad", ("x = 1",)), 1, 5)
    monkeypatch.setattr(Source, "line", no_memory)
    error = ScriptError.from_exception(MemoryError(), where)
    assert str(error).splitlines() == [
        "s.ad:1:5: error",
        "MemoryError: out of memory (an allocation failed)",
    ]


def test_a_failure_python_did_not_explain_says_memory_is_the_likely_cause(capsys) -> None:
    # CPython 3.11 reports some failed allocations as this SystemError (a frame it could not
    # push, for one); seen in CI for tests/hostile/cap_trace_long_lines.ad
    error = SystemError("error return without exception set")
    diagnostics.report_exception(error, debug=False, context="s.ad")
    assert capsys.readouterr().err.splitlines() == [
        "s.ad: error",
        "SystemError: error return without exception set (a failure Python did not explain:"
        " most often memory ran out)",
    ]
    diagnostics.report_exception(SystemError("bad argument"), debug=False, context="s.ad")
    assert capsys.readouterr().err.splitlines() == ["s.ad: error", "SystemError: bad argument"]

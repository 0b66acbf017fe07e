"""The golden comparison: numbers within the rounding tolerance, everything else exactly."""

from __future__ import annotations

import pytest
from golden_compare import (
    FLOAT64_REL,
    differences,
    mismatch_report,
    numbers_match,
    script_atol,
)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ("0.1234", "0.1235"),  # one unit in the last printed digit
        ("0.30000001192092896", "0.30000000000000004"),  # float32 item(), last bits
        ("1.2346e+02", "1.2347e+02"),
        ("-2.5000e-05", "-2.5001e-05"),
        ("3.", "3.0000"),
        ("-0.0000", "0.0000"),
        ("-3.9236e-44", "-3.7835e-44"),  # float32 subnormals: one step of 1.4e-45 apart
    ],
)
def test_numbers_within_tolerance(expected: str, actual: str) -> None:
    assert numbers_match(expected, actual)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ("0.1234", "0.1236"),  # two units
        ("0.30000001192092896", "0.3000050000000000"),  # 1.7e-5 relative
        ("3.", "4."),  # integral floats: no unit of slack
        ("3", "4"),  # integers exactly
        ("3", "3.0"),  # an integer is not a float
        ("1.0000e+02", "1.0000e+03"),
        ("0.0", "-6.103515625e-05"),  # shortest reprs: no unit of slack
        ("2.956390380859375e-05", "0.0"),
        ("0.5000", "5.0001e-01"),  # printed differently: no unit either
        ("1.0000e-30", "1.0002e-30"),  # small but normal: relative tolerance as usual
    ],
)
def test_numbers_beyond_tolerance(expected: str, actual: str) -> None:
    assert not numbers_match(expected, actual)


def test_float64_tolerance_is_tighter() -> None:
    assert numbers_match("0.30000000000000004", "0.30000000000000010", FLOAT64_REL)
    assert not numbers_match("0.30000001192092896", "0.30000000000000004", FLOAT64_REL)
    assert numbers_match("0.30000001192092896", "0.30000000000000004")


def test_identical_texts_match() -> None:
    text = "tensor([1.0000, 2.5000], grad_fn=<AddBackward0>)\nstep 3 loss 0.125\n"
    assert differences(text, text) == []
    assert mismatch_report(text, text) is None


def test_last_digit_changes_match() -> None:
    golden = "loss 0.6931471824645996\ntensor([0.1235, 0.5000])\n"
    actual = "loss 0.6931471228599548\ntensor([0.1234, 0.5000])\n"
    assert differences(golden, actual) == []


def test_a_different_word_fails() -> None:
    golden = "tensor([1., 2.], grad_fn=<AddBackward0>)\n"
    actual = "tensor([1., 2.], grad_fn=<SubBackward0>)\n"
    assert differences(golden, actual) == [
        "line 1: text '], grad_fn=<SubBackward0>)\\n' printed, "
        "'], grad_fn=<AddBackward0>)\\n' expected"
    ]


def test_a_number_off_by_more_than_the_tolerance_fails() -> None:
    golden = "a\ntensor([0.1000, 0.2000])\n"
    actual = "a\ntensor([0.1000, 0.2002])\n"
    assert differences(golden, actual) == ["line 2: 0.2002 printed, 0.2000 expected"]
    report = mismatch_report(golden, actual)
    assert report is not None and "-tensor([0.1000, 0.2000])" in report


def test_a_missing_line_fails() -> None:
    golden = "step 1 0.5000\nstep 2 0.2500\n"
    assert differences(golden, "step 1 0.5000\n") == ["4 numbers expected, 2 printed"]
    assert differences("done\nok\n", "done\n") == [
        "line 2: text 'done\\n' printed, 'done\\nok\\n' expected"
    ]


def test_an_integer_index_must_be_equal() -> None:
    assert differences("indices=tensor([1, 3])", "indices=tensor([3, 1])") != []


def test_spacing_may_change_only_with_a_changed_number() -> None:
    # 9.99995 rounds up to 10.0000 here: PyTorch pads every element to the new width
    golden = "tensor([1.5000, 9.9999])"
    actual = "tensor([ 1.5000, 10.0000])"
    assert differences(golden, actual) == []
    # the same spacing change with every number identical is a real difference
    assert differences("tensor([1.5000, 2.0000])", "tensor([ 1.5000, 2.0000])") != []
    # whitespace away from numbers is always exact
    assert differences("a b 0.5001", "a  b 0.5000") != []


def test_words_with_digits_are_text() -> None:
    assert differences("torch.float32", "torch.float64") != []
    assert differences("<AddBackward0 object at 0x7f00>", "<AddBackward0 object at 0x7f00>") == []
    assert differences("version 2.13.0", "version 2.13.1") != []


def test_a_script_tolerance_is_ulps_at_a_magnitude() -> None:
    """`# golden-tolerance: N float32 ulps at X` widens the float check to N ulps at X."""
    source = "import torch\n# golden-tolerance: 4 float32 ulps at 3.4\n# why...\n"
    atol = script_atol(source)
    assert atol == 4 * 2.0**-22
    assert script_atol("# golden-tolerance: 2 float64 ulps at 1.0\n") == 2 * 2.0**-52
    assert script_atol("x = 1  # golden-tolerance: 4 float32 ulps at 3.4\n") == 0.0
    assert script_atol("print(1)\n") == 0.0
    golden = "error in w: tensor([ 5.8532e-05, -7.1383e-04])\n"
    seen = "error in w: tensor([ 5.8532e-05, -7.1406e-04])\n"  # OpenBLAS's AVX-512 kernel
    assert mismatch_report(golden, seen) is not None
    assert mismatch_report(golden, seen, atol=atol) is None
    assert mismatch_report(golden, "error in w: tensor([ 5.8532e-05, -7.1500e-04])\n", atol=atol)

"""What the graph page's tests share: running the CLI as a user does, and a headless Chromium
driven by Selenium (Debian's chromium and chromium-driver; nothing is ever downloaded)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import cli_runner
import pytest

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "tests-output"  # screenshots (gitignored)
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,900",
)
WAIT = 90  # seconds for any condition in the page: a loaded 2-core machine is slow


def autodiff(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """`cli_runner.autodiff` with time for a page of thousands of nodes on a loaded machine."""
    return cli_runner.autodiff(*args, stdin=stdin, timeout=300)


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"{path} not found (apt-get install {package})"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    return None


def start_browser():
    """A headless Chromium (yielded by the tests' fixture, which quits it): skipped with the
    reason when it is missing here, a failure in CI (CI=true), where it must run."""
    missing = browser_missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests must run in CI: {missing}")
        pytest.skip(f"no headless browser: {missing}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="autodiff-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager never fetches anything
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT * 2)
    driver.set_script_timeout(WAIT)
    return driver, profile


def stop_browser(driver, profile: str) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def open_page(driver, path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(path.resolve().as_uri())
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return document.body.getAttribute('data-ready')") == "true"
    )


def wait_for(driver, condition, message: str):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(lambda d: condition(d), message=message)


def screenshot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    target = ARTIFACTS / name
    driver.save_screenshot(str(target))
    return target

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def root() -> Path:
    """The course folder."""
    return ROOT


# -- screenshots of failed browser tests (tests/course/test_browser.py) ---------------------------
ARTIFACTS = ROOT / "test-artifacts"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """When a test that uses the `lab_page` fixture fails, save what the browser showed."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    page = getattr(item, "funcargs", {}).get("lab_page")
    if page is None:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        page.screenshot(path=str(ARTIFACTS / f"FAILED-{item.name}.png"), full_page=True)
    except Exception as exc:  # the page may be gone; the test's own error matters more
        print(f"could not save a screenshot of {item.name}: {exc}")

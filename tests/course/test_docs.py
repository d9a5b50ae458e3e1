"""The README is an index of at most 150 lines, and every link of the README and docs/ reaches a file."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def local_links(page: Path) -> list[str]:
    """The page's markdown links to files of this repository (web addresses and anchors left out)."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # code blocks hold commands, not links
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_readme_is_a_short_index():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines"
    text = "\n".join(lines)
    assert "make demo" in text and "make test" in text
    for page in ("instructor-guide", "grading", "tournament", "publishing", "lab-authoring"):
        assert f"(docs/{page}.md)" in text, page


def test_every_link_resolves():
    missing = []
    for page in PAGES:
        links = local_links(page)
        assert page.name != "README.md" or links, "no links found: the pattern is broken"
        for target in links:
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert not missing, missing


def test_ci_runs_the_readmes_test_command():
    assert "make test" in (ROOT / ".ci" / "run").read_text()

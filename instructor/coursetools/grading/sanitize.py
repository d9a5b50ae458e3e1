"""Make everything a graded notebook shows inert, before any page shows it.

A student controls the outputs of the code they run (``display(HTML(...))``, ``Javascript(...)``,
an SVG, an image's metadata) and the source of every markdown cell they write, and nbconvert and
formgrader put both into their pages as HTML. `sanitize_notebook` rewrites a graded notebook so
that none of it can run: HTML goes through nh3 (the binding of the Ammonia sanitiser) with a short
list of tags and attributes, URLs are limited to web links and inline PNG/JPEG pictures, outputs
that are code (JavaScript, widget views) or can hold code (SVG, unknown types) are dropped with a
plain note, and a markdown source keeps its text and maths unless it holds raw HTML that had to go.
`coursetools.grading.preprocessors.SanitizeOutputs` runs it where the autograded notebook is written,
so formgrader, the feedback page and every later viewer see the clean copy; `submitted/` keeps the
student's own notebook untouched.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import nh3
from nbformat.notebooknode import NotebookNode

# Tags a page may show: Ammonia's default list (no script, style, iframe, form, object, svg, math...).
TAGS = frozenset(nh3.ALLOWED_TAGS)
# No id or name: they could shadow the names of the page's own scripts (formgrader's, MathJax's).
ATTRIBUTES = {
    "*": {"class", "title", "lang", "dir", "align"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
    "ol": {"start"},
}
DATA_IMAGE = re.compile(r"data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]*\Z", re.IGNORECASE)
SCHEME = re.compile(r"([a-z][a-z0-9+.-]*):", re.IGNORECASE)
LINK_SCHEMES = ("http", "https", "mailto")
SIZE = re.compile(r"\d{1,5}(\.\d+)?%?\Z")
BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*\Z")
# Outputs a page may show once cleaned; anything else (JavaScript, widget views, SVG, PDF...) is dropped.
KEPT_MIMES = ("text/plain", "text/html", "text/markdown", "text/latex", "image/png", "image/jpeg")
IMAGE_MIMES = ("image/png", "image/jpeg")
# The Content-Security-Policy of the pages the project writes that run no script (class report, tournament):
# they load only their own figures, so a name or message that slipped through unescaped still cannot act.
PAGE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
NOTE = "[{mimes}: removed by the grader, which shows no code a submission wrote]"


def _attribute(tag: str, attr: str, value: str) -> str | None:
    """Keep a link only to the web, a mail address or a relative path; a picture only inline (PNG, JPEG)."""
    value = value.strip()
    if attr == "href":
        scheme = SCHEME.match(re.sub(r"[\x00-\x20]", "", value))  # browsers ignore blanks and controls here
        return value if scheme is None or scheme.group(1).lower() in LINK_SCHEMES else None
    if attr == "src":
        return value if DATA_IMAGE.match(value) or value.startswith("attachment:") else None
    if attr in ("width", "height"):
        return value if SIZE.match(value) else None
    return value


def clean_html(text: str) -> str:
    """`text` as HTML with nothing in it that can run, load or send anything."""
    return nh3.clean(text, tags=set(TAGS), attributes={k: set(v) for k, v in ATTRIBUTES.items()},
                     url_schemes={"http", "https", "mailto", "data", "attachment"},
                     attribute_filter=_attribute, link_rel="noopener noreferrer nofollow",
                     strip_comments=True)


# -- markdown ------------------------------------------------------------------------------

# Spans the markdown renderer shows escaped (code, maths): they pass through untouched.
_LITERAL = re.compile(r"(?s)```.*?```|~~~.*?~~~|`[^`\n]+`|\$\$.+?\$\$|\\\[.+?\\\]|\\\(.+?\\\)|\$[^$\n]+\$")
_MARK = "\ue000{}\ue001"  # private-use characters: no sanitiser or markdown parser gives them meaning


def _render(source: str) -> str:
    from nbconvert.filters.markdown import markdown2html  # the renderer formgrader and the feedback page use
    return markdown2html(source)


def sanitize_markdown(source: str) -> str:
    """A markdown source whose rendering is inert: unchanged when it holds no HTML that could act.

    Code spans, fenced code and maths are kept as they are; raw HTML goes through `clean_html`. When
    even the cleaned source would render something that is not inert, the cell is shown as plain text.
    """
    literals: list[str] = []

    def mask(m: re.Match) -> str:
        literals.append(m.group(0))
        return _MARK.format(len(literals) - 1)

    masked = _LITERAL.sub(mask, source)
    candidate = source
    if "<" in masked:
        cleaned = clean_html(masked)
        if html.unescape(cleaned) != html.unescape(masked):
            cleaned = cleaned.replace("&gt;", ">")  # quotes (`> `) and comparisons read as before
            candidate = re.sub("\ue000(\\d+)\ue001", lambda m: literals[int(m.group(1))], cleaned)
    if not problems(_render(candidate)):
        return candidate
    text = source.replace("`", "\u02cb")
    return ("*Shown as plain text by the grader: this cell held HTML or a picture address that a page may not "
            f"show.*\n\n```text\n{text}\n```")


# -- notebooks -----------------------------------------------------------------------------

def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def sanitize_output(output: NotebookNode) -> NotebookNode:
    """`output` with only what a page may show, cleaned; a note names what was dropped."""
    if output.get("output_type") not in ("display_data", "execute_result"):
        return output  # streams and errors: nbconvert and formgrader show them as escaped text
    data, kept, dropped = output.get("data", {}), {}, []
    for mime, value in data.items():
        text = _text(value)
        if mime not in KEPT_MIMES or (mime in IMAGE_MIMES and not BASE64.match(text)):
            dropped.append(mime)
        elif mime == "text/html":
            kept[mime] = clean_html(text)
        elif mime == "text/markdown":
            kept[mime] = sanitize_markdown(text)
        elif mime == "text/latex":
            kept[mime] = html.escape(text, quote=False)  # MathJax reads the text; no tag survives
        else:
            kept[mime] = value
    if dropped:
        note = NOTE.format(mimes=", ".join(sorted(dropped)))
        kept["text/plain"] = (_text(kept["text/plain"]) + "\n" + note) if "text/plain" in kept else note
    metadata = {}
    for mime in IMAGE_MIMES:  # nbconvert writes width and height into the img tag unquoted: numbers only
        sizes = (output.get("metadata") or {}).get(mime)
        if mime in kept and isinstance(sizes, dict):
            metadata[mime] = {k: sizes[k] for k in ("width", "height")
                              if isinstance(sizes.get(k), (int, float)) and not isinstance(sizes.get(k), bool)}
            if isinstance(sizes.get("alt"), str):  # the text alternative: nbconvert writes it escaped
                metadata[mime]["alt"] = sizes["alt"][:4000]
    output["data"] = NotebookNode(kept)
    output["metadata"] = NotebookNode(metadata)
    return output


def sanitize_notebook(nb: NotebookNode) -> NotebookNode:
    """Every output, markdown source, raw cell and attachment of `nb` made inert (in place; returns `nb`)."""
    nb.metadata.pop("widgets", None)  # saved widget state: pages that find it load a widget manager
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = [sanitize_output(o) for o in cell.get("outputs", [])]
        elif cell.cell_type == "markdown":
            cell.source = sanitize_markdown(_text(cell.source))
        elif cell.cell_type == "raw":
            if "<" in _text(cell.source):
                cell.source = clean_html(_text(cell.source))
        if "attachments" in cell:
            cell.attachments = NotebookNode({
                name: NotebookNode({m: v for m, v in bundle.items() if m in IMAGE_MIMES and BASE64.match(_text(v))})
                for name, bundle in (cell.attachments or {}).items()})
    return nb


# -- checking ------------------------------------------------------------------------------

class _Finder(HTMLParser):
    """Everything in a piece of HTML that could run, load or send something, as short descriptions."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            value = (value or "").strip()
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
            elif name in ("href", "src", "action", "formaction", "xlink:href", "srcset", "data", "style") and value:
                if _attribute(tag, "src" if name != "href" else name, value) is None or name not in ("href", "src"):
                    self.found.append(f"<{tag} {name}={value[:40]!r}>")

    handle_startendtag = handle_starttag


def problems(fragment: str) -> list[str]:
    """What in `fragment` (HTML) could run, load or send something; empty when it is inert."""
    finder = _Finder()
    finder.feed(fragment)
    finder.close()
    return finder.found

"""``coursetools push-grades LAB``: each student's score sent to the LMS by LTI 1.3 (Assignment and Grade Services).

The course is an LTI 1.3 tool of the LMS (the platform). The settings live in ``lti.ini`` in the course folder
(`read_settings`): the platform's issuer, the tool's client id, the platform's token endpoint, the course's line
items endpoint (the ``lineitems`` URL of the AGS claim of a launch), the tool's private key (a PEM file readable by
the instructor only; ``coursetools lti-key`` makes one and prints the public key to register in the LMS) and,
optionally, a CSV mapping the course's student ids to the platform's LTI user ids.

A push (`push_grades`):
1. asks the token endpoint for an access token (OAuth 2 client credentials with a JWT signed by the tool's key,
   as the IMS Security Framework says), for the line item and score scopes;
2. looks the lab's line item up by its resource id (the lab's name) and creates it only when there is none, so
   no push ever adds a second column;
3. reads the line item's results and sends a score only for a student whose result differs, so pushing again
   changes nothing;
4. sends each student's score on its own, retrying that student alone (a new token when the old one expired);
   a student who still fails is named and the others go on. Every attempt goes to ``exports/LAB-push-grades.log``.

The scores are those of the Canvas and Moodle exports (`coursetools.grading.lmsexport.lab_scores`): late penalties
as graded; a student with a written answer not graded yet is not sent (pending), never sent as 0.
"""

from __future__ import annotations

import configparser
import csv
import datetime
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit, parse_qsl

SETTINGS = "lti.ini"
SCOPE_LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPE_LINEITEM_READ = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
SCOPE_RESULT_READ = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_CONTAINER = "application/vnd.ims.lis.v2.lineitemcontainer+json"
LINEITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
RESULT_CONTAINER = "application/vnd.ims.lis.v2.resultcontainer+json"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
TAG = "coursetools"


class LtiError(Exception):
    """A problem that stops the whole push (settings, key, token, line item), in words for the instructor."""


@dataclass
class Settings:
    """The course's LTI 1.3 registration in the LMS, from ``lti.ini``."""

    issuer: str
    client_id: str
    token_url: str
    lineitems_url: str
    private_key: str  # PEM text
    key_id: str
    audience: str
    users: dict[str, str] | None = None  # course student id -> LTI user id (None: they are the same)
    retries: int = 4
    retry_wait: float = 2.0
    timeout: float = 30.0


def read_settings(root: Path, path: Path | None = None) -> Settings:
    """Read ``lti.ini`` (section ``[lti]``); every missing or wrong entry is named."""
    from coursetools.sandbox.safecopy import read_regular

    path = path or root / SETTINGS
    parser = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
    try:
        parser.read_string(read_regular(path, 1 << 20).decode("utf-8"))
    except FileNotFoundError:
        raise LtiError(f"no {path}: write the LMS's LTI 1.3 settings there (docs/instructor-guide.md, section 7)") \
            from None
    except (OSError, ValueError, configparser.Error) as exc:
        raise LtiError(f"cannot read {path}: {exc}") from None
    if not parser.has_section("lti"):
        raise LtiError(f"{path} has no [lti] section")
    s = parser["lti"]
    needed = ("issuer", "client_id", "token_url", "lineitems_url", "private_key")
    missing = [k for k in needed if not s.get(k, "").strip()]
    if missing:
        raise LtiError(f"{path}: [lti] needs {', '.join(missing)}")
    for key in ("token_url", "lineitems_url"):
        if urlsplit(s[key]).scheme not in ("https", "http") or not urlsplit(s[key]).netloc:
            raise LtiError(f"{path}: {key} is not a web address: {s[key]!r}")
        if urlsplit(s[key]).scheme == "http" and urlsplit(s[key]).hostname not in ("127.0.0.1", "localhost", "::1"):
            raise LtiError(f"{path}: {key} must be https (tokens and grades must not cross the network in clear)")
    key_path = (root / s["private_key"]).resolve() if not Path(s["private_key"]).is_absolute() else Path(s["private_key"])
    pem = read_private_key(key_path)
    users = _users(root / s["users"]) if s.get("users", "").strip() else None
    try:
        retries, wait, timeout = s.getint("retries", 4), s.getfloat("retry_wait", 2.0), s.getfloat("timeout", 30.0)
    except ValueError as exc:
        raise LtiError(f"{path}: {exc}") from None
    return Settings(issuer=s["issuer"].strip(), client_id=s["client_id"].strip(), token_url=s["token_url"].strip(),
                    lineitems_url=s["lineitems_url"].strip(), private_key=pem,
                    key_id=s.get("key_id", "").strip() or public_jwk(pem)["kid"],
                    audience=s.get("audience", "").strip() or s["token_url"].strip(), users=users,
                    retries=max(1, retries), retry_wait=max(0.0, wait), timeout=timeout)


def read_private_key(path: Path) -> str:
    import os
    import stat

    from coursetools.sandbox.safecopy import read_regular

    try:
        pem = read_regular(path, 1 << 16).decode("ascii")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise LtiError(f"cannot read the tool's private key {path}: {exc} (`coursetools lti-key {path.name}` makes "
                       "one)") from None
    if stat.S_IMODE(os.stat(path).st_mode) & 0o077:
        raise LtiError(f"the tool's private key {path} is readable by others: chmod 600 {path}")
    return pem


def _users(path: Path) -> dict[str, str]:
    from coursetools.sandbox.safecopy import read_regular

    try:
        rows = list(csv.DictReader(read_regular(path, 1 << 24).decode("utf-8-sig").splitlines()))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise LtiError(f"cannot read the LTI user list {path}: {exc}") from None
    if rows and not {"student_id", "lti_user_id"} <= set(rows[0]):
        raise LtiError(f"{path} needs the columns student_id and lti_user_id")
    return {r["student_id"].strip(): r["lti_user_id"].strip() for r in rows if r["student_id"] and r["lti_user_id"]}


def public_jwk(pem: str) -> dict:
    """The public half of the tool's key as a JWK (RS256, with a kid from its thumbprint), to register in the LMS."""
    from jwcrypto.jwk import JWK

    try:
        key = JWK.from_pem(pem.encode("ascii"))
    except (ValueError, TypeError) as exc:
        raise LtiError(f"the tool's private key is not an RSA key in PEM: {exc}") from None
    jwk = key.export_public(as_dict=True)
    jwk.update(alg="RS256", use="sig", kid=key.thumbprint())
    return jwk


def new_key(path: Path) -> dict:
    """Write a new 2048-bit RSA private key to `path` (mode 0600, never over an existing file); its public JWK."""
    import os

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return public_jwk(pem.decode("ascii"))


@dataclass
class Outcome:
    """What a push did, student by student."""

    lineitem: str = ""
    created: bool = False
    sent: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    no_lti_user: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)

    def summary(self, lab: str) -> str:
        lines = [f"{lab} -> line item {self.lineitem}{' (created)' if self.created else ''}: {len(self.sent)} sent, "
                 f"{len(self.unchanged)} unchanged, {len(self.pending)} pending, {len(self.failed)} failed"]
        if self.pending:
            lines.append(f"  pending (a written answer not graded yet; not sent, never 0): {', '.join(self.pending)}")
        if self.no_lti_user:
            lines.append(f"  no LTI user id in the user list (not sent): {', '.join(self.no_lti_user)}")
        lines += [f"  FAILED {s}: {why}" for s, why in sorted(self.failed.items())]
        return "\n".join(lines)


class Client:
    """An AGS client of one platform: a token for the scopes asked, renewed when it expires or is refused."""

    def __init__(self, settings: Settings, log) -> None:
        import requests

        self.s = settings
        self.log = log
        self.http = requests.Session()
        self.token: str | None = None
        self.scopes: set[str] = set()
        self.expires = 0.0

    def _assertion(self) -> str:
        import jwt

        now = int(time.time())
        claims = {"iss": self.s.client_id, "sub": self.s.client_id, "aud": self.s.audience, "iat": now,
                  "exp": now + 300, "jti": uuid.uuid4().hex}
        return jwt.encode(claims, self.s.private_key, algorithm="RS256", headers={"kid": self.s.key_id})

    def fetch_token(self) -> None:
        """A new access token (client credentials with a signed JWT); refused tokens are said in words."""
        import requests

        wanted = " ".join((SCOPE_LINEITEM, SCOPE_LINEITEM_READ, SCOPE_RESULT_READ, SCOPE_SCORE))
        form = {"grant_type": "client_credentials",
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                "client_assertion": self._assertion(), "scope": wanted}
        try:
            r = self.http.post(self.s.token_url, data=form, timeout=self.s.timeout)
        except requests.RequestException as exc:
            raise LtiError(f"the token endpoint {self.s.token_url} did not answer: {exc}") from None
        if r.status_code != 200:
            raise LtiError(f"the platform refused an access token ({r.status_code}: {r.text[:200]}); is the tool's "
                           f"public key (kid {self.s.key_id}) the one registered for client {self.s.client_id}? "
                           "`coursetools lti-key` prints it")
        body = r.json()
        self.token = body["access_token"]
        self.scopes = set(str(body.get("scope", "")).split())
        self.expires = time.monotonic() + float(body.get("expires_in", 3600)) - 30
        self.log(f"token: granted {' '.join(sorted(self.scopes)) or 'no scope'}, for {body.get('expires_in')} s")

    def request(self, method: str, url: str, *, accept: str, json=None, content_type: str | None = None):
        """One authorised request; a 401 (expired or revoked token) gets one new token and one more try."""
        for attempt in (1, 2):
            if self.token is None or time.monotonic() > self.expires:
                self.fetch_token()
            headers = {"Authorization": f"Bearer {self.token}", "Accept": accept}
            if content_type:
                headers["Content-Type"] = content_type
            r = self.http.request(method, url, headers=headers, json=json, timeout=self.s.timeout)
            if r.status_code == 401 and attempt == 1:
                self.log(f"{method} {url}: 401 ({r.text[:120]}); asking for a new token")
                self.token = None
                continue
            return r
        return r


def _with_query(url: str, **params: str) -> str:
    parts = urlsplit(url)
    query = parse_qsl(parts.query) + list(params.items())
    return urlunsplit(parts._replace(query=urlencode(query)))


def _scores_url(lineitem: str, tail: str) -> str:
    """The line item's ``/scores`` or ``/results`` service: its path plus the tail, its query kept (AGS 3.4)."""
    parts = urlsplit(lineitem)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + tail))


def find_or_create_lineitem(client: Client, lab: str, maximum: float) -> tuple[str, bool]:
    """The lab's line item (resource id = the lab), created only when the platform has none."""
    url = _with_query(client.s.lineitems_url, resource_id=lab)
    found = []
    while url:
        r = client.request("GET", url, accept=LINEITEM_CONTAINER)
        if r.status_code != 200:
            raise LtiError(f"the platform did not list its line items ({r.status_code}: {r.text[:200]})")
        found += [li for li in r.json() if li.get("resourceId") == lab]
        url = _next_link(r)
    if found:
        return sorted(found, key=lambda li: li["id"])[0]["id"], False
    if SCOPE_LINEITEM not in client.scopes:
        raise LtiError(f"the platform has no line item for {lab} and did not grant the scope to create one "
                       f"({SCOPE_LINEITEM}): create the assignment {lab} in the LMS, or allow the scope")
    item = {"label": lab, "scoreMaximum": maximum, "resourceId": lab, "tag": TAG}
    r = client.request("POST", client.s.lineitems_url, accept=LINEITEM_TYPE, json=item, content_type=LINEITEM_TYPE)
    if r.status_code not in (200, 201):
        raise LtiError(f"the platform did not create the line item of {lab} ({r.status_code}: {r.text[:200]})")
    return r.json()["id"], True


def _next_link(r) -> str | None:
    link = r.links.get("next", {}).get("url") if hasattr(r, "links") else None
    return link or None


def current_results(client: Client, lineitem: str) -> dict[str, tuple[float | None, float | None]]:
    """``{LTI user id: (resultScore, resultMaximum)}`` as the platform has them (empty without the result scope)."""
    if SCOPE_RESULT_READ not in client.scopes:
        return {}
    out, url = {}, _scores_url(lineitem, "/results")
    while url:
        r = client.request("GET", url, accept=RESULT_CONTAINER)
        if r.status_code != 200:
            return out  # without results every score is sent again; the platform keeps the last one
        for res in r.json():
            out[str(res.get("userId"))] = (res.get("resultScore"), res.get("resultMaximum"))
        url = _next_link(r)
    return out


def push_grades(root: Path, lab: str, settings: Settings, log) -> Outcome:
    """Send `lab`'s scores from the course's gradebook to the platform; see the module's docstring."""
    from nbgrader.api import Gradebook

    from coursetools.grading.gradebook import course_id, db_url
    from coursetools.grading.lmsexport import lab_scores

    with Gradebook(db_url(root), course_id(root)) as gb:
        try:
            scores, maximum = lab_scores(gb, lab)
        except ValueError as exc:
            raise LtiError(str(exc)) from None
    client = Client(settings, log)
    out = Outcome()
    out.lineitem, out.created = find_or_create_lineitem(client, lab, maximum)
    log(f"line item of {lab}: {out.lineitem}{' (created)' if out.created else ' (found)'}")
    if SCOPE_SCORE not in client.scopes:
        raise LtiError(f"the platform did not grant the score scope ({SCOPE_SCORE}): allow it for client "
                       f"{settings.client_id} in the LMS's developer key")
    have = current_results(client, out.lineitem)
    for student in sorted(scores):
        score = scores[student]
        user = settings.users.get(student) if settings.users is not None else student
        if user is None:
            out.no_lti_user.append(student)
            continue
        if score.pending:
            out.pending.append(student)
            continue
        result = have.get(user)
        if result and result[0] is not None and abs(float(result[0]) - score.points) < 1e-9 and \
                (result[1] is None or abs(float(result[1]) - maximum) < 1e-9):
            out.unchanged.append(student)
            log(f"{student}: unchanged ({score.points:g} of {maximum:g} already in the LMS)")
            continue
        problem = _send(client, out.lineitem, student, user, score.points, maximum, log)
        if problem:
            out.failed[student] = problem
        else:
            out.sent.append(student)
    return out


def _send(client: Client, lineitem: str, student: str, user: str, points: float, maximum: float, log) -> str | None:
    """POST one score, retried on its own; None when the platform took it, else why not."""
    import requests

    url = _scores_url(lineitem, "/scores")
    problem = None
    for attempt in range(1, client.s.retries + 1):
        body = {"userId": user, "scoreGiven": points, "scoreMaximum": maximum, "activityProgress": "Completed",
                "gradingProgress": "FullyGraded",
                "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")}
        try:
            r = client.request("POST", url, accept="application/json", json=body, content_type=SCORE_TYPE)
        except LtiError as exc:
            problem = str(exc)
        except requests.RequestException as exc:
            problem = f"no answer ({type(exc).__name__})"
        else:
            if r.status_code in (200, 201, 202, 204):
                log(f"{student}: sent {points:g} of {maximum:g} (attempt {attempt}: {r.status_code})")
                return None
            problem = f"{r.status_code}: {r.text[:200]}"
            if r.status_code in (400, 403, 404, 409, 422):
                log(f"{student}: refused (attempt {attempt}: {problem}); not retried")
                return problem
        log(f"{student}: attempt {attempt} of {client.s.retries} failed ({problem})")
        if attempt < client.s.retries:
            time.sleep(client.s.retry_wait * 2 ** (attempt - 1))
    return problem

"""The VS Code extension (editors/vscode) in a real VS Code.

VS Code is code-server (Code 1.100 served to a browser; `.ci/run` installs
it from npm under .ci/.code-server), the browser is Debian's headless
Chromium driven by Playwright. The extension is packaged with vsce from the
sources in editors/vscode and installed into code-server from that `.vsix`
(`--install-extension`), exactly as a user installs it. Each test opens a
copy of the demo project (fixtures/demo) as the window's folder and asserts
on the page's content; a screenshot of each step is saved under
.ci/artifacts/vscode/ (or $STANDARDS_LINT_ARTIFACTS).

Where code-server, Chromium, Playwright or the extension's npm packages are
not installed, the tests skip and say which (`.ci/run` installs them all).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "demo"
EXTENSION = ROOT / "editors" / "vscode"
VSCE = EXTENSION / "node_modules" / ".bin" / "vsce"
CODE_SERVER = Path(os.environ.get("STANDARDS_LINT_CODE_SERVER",
                                  ROOT / ".ci" / ".code-server" / "node_modules" / ".bin" / "code-server"))
ARTIFACTS = Path(os.environ.get("STANDARDS_LINT_ARTIFACTS", ROOT / ".ci" / "artifacts" / "vscode"))
STATE = ".standards/STATE.md"
SYNC = ".standards/docs/synchronization/add-user-search-20261130T024246Z-0db7f414.md"
INSTALL_COMMAND = "pip install 'standards-lint[server]'"
TIMEOUT = 60.0  # seconds for anything the page must show

# The demo's findings, as the command line reports them (checked against it below).
DEMO_CODES = ["SL214", "SL215", "SL215", "SL353", "SL501", "SL931"]


def _need_vsce():
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed (the extension is packaged with vsce, an npm package)")
    if not VSCE.exists():
        pytest.skip("the extension's npm packages are not installed: run `npm ci` in editors/vscode (.ci/run does)")


def _vsce(*args: str, cwd: Path = EXTENSION) -> subprocess.CompletedProcess:
    return subprocess.run([str(VSCE), *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def vsix(tmp_path_factory) -> Path:
    """The extension packaged from the current sources."""
    _need_vsce()
    out = tmp_path_factory.mktemp("vsix") / "standards-lint.vsix"
    proc = _vsce("package", "--allow-missing-repository", "-o", str(out))
    assert proc.returncode == 0 and out.exists(), proc.stdout + proc.stderr
    return out


# -- the package -------------------------------------------------------------------------------------
def _production_packages() -> set:
    """The extension's runtime dependencies and theirs, from the installed
    packages' manifests (npm's layout: nested node_modules first)."""
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    seen: set = set()
    todo = [(name, EXTENSION) for name in manifest.get("dependencies", {})]
    while todo:
        name, base = todo.pop()
        where = base
        while True:
            candidate = where / "node_modules" / name
            if (candidate / "package.json").exists() or where == EXTENSION:
                break
            where = where.parent.parent if where.parent.name == "node_modules" else EXTENSION
        candidate = where / "node_modules" / name
        rel = candidate.relative_to(EXTENSION).as_posix()
        if rel in seen:
            continue
        seen.add(rel)
        deps = json.loads((candidate / "package.json").read_text(encoding="utf-8")).get("dependencies", {})
        todo.extend((d, candidate) for d in deps)
    return seen


def test_the_vsix_builds_and_ships_only_what_the_extension_runs(vsix: Path):
    ls = _vsce("ls")
    assert ls.returncode == 0, ls.stderr
    listed = ls.stdout.split()
    with zipfile.ZipFile(vsix) as z:
        # vsce stores the LICENSE as LICENSE.txt, the README as readme.md
        renamed = {"LICENSE.txt": "LICENSE", "readme.md": "README.md"}
        shipped = sorted(renamed.get(n[len("extension/"):], n[len("extension/"):])
                         for n in z.namelist() if n.startswith("extension/"))
        manifest = z.read("extension.vsixmanifest").decode("utf-8")
    assert sorted(listed) == shipped
    own = sorted(n for n in shipped if not n.startswith("node_modules/"))
    assert own == sorted(["LICENSE", "README.md", "package.json", "src/executable.js", "src/extension.js",
                          "src/view.js", "media/mermaid.min.js", "media/preview.css", "media/preview.js"])
    packages = _production_packages()
    assert "node_modules/vscode-languageclient" in packages
    for name in shipped:
        if name.startswith("node_modules/"):
            assert any(name.startswith(p + "/") for p in packages), f"{name} is no runtime dependency's"
            assert not name.endswith((".d.ts", ".map", ".ts")), name
    # The development tools stay out: vsce, Mermaid's sources and dependencies (one built file is copied).
    assert not any(n.startswith(("node_modules/@vscode/", "node_modules/mermaid/", "node_modules/d3"))
                   for n in shipped)
    assert 'Id="standards-lint"' in manifest and "Microsoft.VisualStudio.Code" in manifest
    shipped_code = "".join(_texts(vsix, "extension/src/"))
    # No telemetry and nothing fetched at run time: no network module, no fetch, no telemetry API or package.
    assert not re.search(r"require\('(node:)?(https?|http2|net|dns|tls)'\)|\bfetch\(|TelemetryReporter|"
                         r"createTelemetryLogger|env\.telemetry", shipped_code)
    assert not any("telemetry" in n for n in shipped)


def _texts(vsix: Path, prefix: str):
    with zipfile.ZipFile(vsix) as z:
        for n in z.namelist():
            if n.startswith(prefix):
                yield z.read(n).decode("utf-8")


# -- a real VS Code ----------------------------------------------------------------------------------
def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine (Debian's `chromium` package; .ci/run installs it)")


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CodeServer:
    """code-server on 127.0.0.1, with its own user data, extensions and
    configuration, the extension installed from *vsix*."""

    def __init__(self, base: Path, vsix: Path, path_env: str):
        self.base = base
        self.port = _free_port()
        self.user_data = base / "user-data"
        self.extensions = base / "extensions"
        (self.user_data / "User").mkdir(parents=True)
        (self.user_data / "User" / "settings.json").write_text(json.dumps({
            "workbench.startupEditor": "none",
            "security.workspace.trust.enabled": False,
            "telemetry.telemetryLevel": "off",
            "update.mode": "none",
            "extensions.autoCheckUpdates": False,
            "extensions.autoUpdate": False,
            "workbench.tips.enabled": False,
            "workbench.enableExperiments": False,
            "chat.disableAIFeatures": True,
            "files.simpleDialog.enable": True,
            "standardsLint.trace.server": "verbose",  # the log (user-data/logs/...) says what was asked
        }), encoding="utf-8")
        (base / "config.yaml").write_text("auth: none\ncert: false\n", encoding="utf-8")
        # VSCODE_CLI: as when VS Code is started from a terminal (`code .`), the
        # window keeps this environment; otherwise the server replaces PATH
        # with the one of a login shell.
        self.env = dict(os.environ, PATH=path_env, XDG_CONFIG_HOME=str(base / "xdg-config"),
                        XDG_DATA_HOME=str(base / "xdg-data"), HOME=str(base / "home"), VSCODE_CLI="1")
        (base / "home").mkdir()
        self.log = open(base / "code-server.log", "w")
        common = [shutil.which("node") or "node", str(CODE_SERVER), "--config", str(base / "config.yaml"),
                  "--user-data-dir", str(self.user_data),
                  "--extensions-dir", str(self.extensions)]
        installed = subprocess.run([*common, "--install-extension", str(vsix)], capture_output=True, text=True,
                                   env=self.env, timeout=120)
        assert installed.returncode == 0 and "standards-lint" in installed.stdout, installed.stdout + installed.stderr
        self.proc = subprocess.Popen([*common, "--auth", "none", "--bind-addr", f"127.0.0.1:{self.port}",
                                      "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
                                      "--disable-getting-started-override"],
                                     stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            with contextlib.closing(socket.socket()) as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        self.stop()
        raise AssertionError(f"code-server did not start: {(base / 'code-server.log').read_text()}")

    def url(self, folder: Path) -> str:
        return f"http://127.0.0.1:{self.port}/?folder={folder}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def _need_code_server():
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed (code-server runs on Node 20)")
    # .ci/run writes the stamp once code-server is installed and built.
    stamp = ROOT / ".ci" / ".code-server" / ".installed"
    if not CODE_SERVER.exists() or ("STANDARDS_LINT_CODE_SERVER" not in os.environ and not stamp.exists()):
        pytest.skip(f"code-server is not installed at {CODE_SERVER} (.ci/run installs code-server@4.100.3 from npm)")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra) is not installed")
    executable = _chromium()
    with sync_api.sync_playwright() as p:
        args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        b = p.chromium.launch(executable_path=executable, headless=True, args=args)
        yield b
        b.close()


def _with_standards_lint() -> str:
    """PATH with this interpreter's scripts first: the standards-lint the tests run."""
    scripts = Path(sys.executable).parent
    assert (scripts / "standards-lint").exists(), f"no standards-lint script beside {sys.executable}"
    return os.pathsep.join([str(scripts), os.environ.get("PATH", "")])


def _without_standards_lint() -> str:
    """PATH with every folder that holds a standards-lint left out."""
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not (Path(d) / "standards-lint").exists()]
    return os.pathsep.join(keep or ["/usr/bin", "/bin"])


@pytest.fixture(scope="module")
def code_server(vsix, browser, tmp_path_factory):
    _need_code_server()
    server = CodeServer(tmp_path_factory.mktemp("code-server"), vsix, _with_standards_lint())
    yield server
    server.stop()


@pytest.fixture
def demo(tmp_path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


class Shots:
    """Screenshots of a test's steps, numbered, under ARTIFACTS/<test>/."""

    def __init__(self, page, name: str):
        self.page = page
        self.dir = ARTIFACTS / name
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.n = 0

    def __call__(self, step: str) -> Path:
        self.n += 1
        path = self.dir / f"{self.n:02d}-{step}.png"
        self.page.screenshot(path=str(path))
        return path


@pytest.fixture
def window(request, browser):
    """A browser page; ``window(code_server, folder)`` opens VS Code on it."""
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    pages = []

    def open_window(server: CodeServer, folder: Path):
        page = context.new_page()
        page.set_default_timeout(TIMEOUT * 1000)
        pages.append(page)
        page.goto(server.url(folder))
        page.wait_for_selector(".monaco-workbench .part.statusbar")
        page.shots = Shots(page, request.node.name)
        return page

    yield open_window
    for page in pages:
        with contextlib.suppress(Exception):
            page.shots("end")
    context.close()


def _wait(predicate, what: str, page=None, timeout: float = TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            if page is not None:
                with contextlib.suppress(Exception):
                    page.shots("timeout")
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.25)


def _command(page, title: str) -> None:
    """Run a command from the command palette by its title."""
    page.keyboard.press("F1")
    box = page.locator(".quick-input-widget input")
    box.wait_for(state="visible")
    box.fill(">" + title)
    row = page.locator(".quick-input-widget .quick-input-list .monaco-list-row", has_text=title).first
    row.wait_for(state="visible")
    page.keyboard.press("Enter")


def _problems(page) -> list:
    """The Problems panel's markers: (code, message) as shown."""
    out = []
    for row in page.locator(".markers-panel .monaco-list-row").all():
        text = row.inner_text()
        m = re.search(r"\bSL\d{3}\b", text)
        if m:
            out.append((m.group(0), text))
    return out


def _show_problems(page) -> None:
    _command(page, "View: Focus Problems")
    page.wait_for_selector(".markers-panel")


def _status_text(page) -> str:
    item = page.locator(".part.statusbar [aria-label^='standards-lint workflow']")
    return item.first.get_attribute("aria-label") if item.count() else ""


# -- the tests ---------------------------------------------------------------------------------------
def test_the_problems_panel_lists_the_demos_findings_with_their_codes(code_server, window, demo):
    cli = subprocess.run([sys.executable, "-m", "standards_lint", str(demo), "--format", "json", "--no-cache"],
                         capture_output=True, text=True)
    assert sorted(f["code"] for f in json.loads(cli.stdout)["findings"]) == DEMO_CODES
    page = window(code_server, demo)
    page.shots("opened")
    _show_problems(page)
    problems = _wait(lambda: (lambda p: p if sorted(c for c, _ in p) == DEMO_CODES else None)(_problems(page)),
                     f"the Problems panel to list {DEMO_CODES}", page)
    page.shots("problems")
    texts = dict((c, t) for c, t in problems)
    assert "Recovery.Active is `true` but there are 0 frames" in texts["SL501"]
    assert "so this record must be COMPLETE" in texts["SL931"]
    # Each code links to its rule page (the diagnostic's codeDescription: the installed page).
    for code in set(DEMO_CODES):
        link = page.locator(".markers-panel .monaco-list-row a.monaco-link", has_text=code).first
        assert link.get_attribute("href").endswith(f"/{code}.md"), code


def test_a_quick_fix_changes_the_file_as_the_command_lines_fix(code_server, window, demo, tmp_path):
    expected = tmp_path / "by-cli"
    shutil.copytree(DEMO, expected)
    fixed = subprocess.run([sys.executable, "-m", "standards_lint", str(expected), "--fix", "--no-cache"],
                           capture_output=True, text=True)
    assert "Fixed 1 finding in 1 file." in fixed.stdout + fixed.stderr
    page = window(code_server, demo)
    _show_problems(page)
    _wait(lambda: any(c == "SL501" for c, _ in _problems(page)), "SL501 in the Problems panel", page)
    # Open STATE.md at the finding (a double click on it in the Problems panel selects its
    # range in the editor), ask for the quick fixes there.
    page.locator(".markers-panel .monaco-list-row", has_text="SL501").first.locator(".marker-message").dblclick()
    page.locator(".tabs-container .tab.active", has_text="STATE.md").wait_for(state="visible")
    page.wait_for_selector(".monaco-editor.focused .view-lines")
    # The hover on the finding: the rule, its protocol section, the fix.
    page.keyboard.press("Control+k")
    page.keyboard.press("Control+i")
    hover = page.locator(".monaco-hover .hover-contents", has_text="recovery-active-mismatch").first
    hover.wait_for(state="visible")
    page.shots("hover")
    text = hover.inner_text()
    assert "SL501" in text and "Protocol section: Recovery Mechanics" in text, text
    assert "This finding's fix is safe" in text, text
    page.keyboard.press("Escape")
    # The light bulb says the server offered code actions at the selection.
    page.locator(".monaco-editor .lightBulbWidget").first.wait_for(state="visible")
    action = page.locator(".action-widget .monaco-list-row", has_text="SL501")

    def menu():
        if not action.count():  # a request cut short by a newer one shows "No code actions available"
            page.keyboard.press("Escape")
            page.keyboard.press("Control+.")
            with contextlib.suppress(Exception):
                action.first.wait_for(state="visible", timeout=5000)
        return action.count()

    _wait(menu, "the quick fix menu with SL501's fix", page)
    page.shots("quick-fix-menu")
    # The safe fix is the preferred one: the menu focuses it; Enter applies it.
    focused = page.locator(".action-widget .monaco-list-row.focused")
    assert focused.get_attribute("aria-label") == "SL501: Set Recovery.Active to `false`."
    page.keyboard.press("Enter")
    page.keyboard.press("Control+s")
    want = (expected / STATE).read_text(encoding="utf-8")
    _wait(lambda: (demo / STATE).read_text(encoding="utf-8") == want, "STATE.md to be saved with the fix", page)
    _wait(lambda: not any(c == "SL501" for c, _ in _problems(page)), "SL501 to leave the Problems panel", page)
    page.shots("fixed")
    assert (demo / STATE).read_bytes() == (expected / STATE).read_bytes()


def test_the_status_bar_shows_state_and_owner_and_follows_a_saved_edit(code_server, window, demo):
    page = window(code_server, demo)
    label = _wait(lambda: _status_text(page), "the standards-lint status-bar item", page)
    page.shots("status-bar")
    assert label.startswith("standards-lint workflow: AWAITING_USER_SIGNOFF, owner USER, 6 errors"), label
    # Edit WorkflowState in the editor and save.
    _command(page, "Go to File...")
    page.keyboard.type("STATE.md")
    page.locator(".quick-input-widget .monaco-list-row", has_text="STATE.md").first.wait_for(state="visible")
    page.keyboard.press("Enter")
    page.wait_for_selector(".monaco-editor .view-lines")
    page.keyboard.press("Control+g")
    page.keyboard.type("3:19")
    page.keyboard.press("Enter")
    page.keyboard.press("Control+Shift+ArrowRight")
    page.keyboard.type("SYNCHRONIZING")
    page.keyboard.press("Control+s")
    _wait(lambda: "`WorkflowState`: `SYNCHRONIZING`" in (demo / STATE).read_text(encoding="utf-8"),
          "STATE.md to be saved", page)
    label = _wait(lambda: (lambda t: t if "SYNCHRONIZING" in t else None)(_status_text(page)),
                  "the status-bar item to follow the edit", page)
    page.shots("status-bar-after-edit")
    assert label.startswith("standards-lint workflow: SYNCHRONIZING, owner SYNCHRONIZER"), label
    # A click opens the status, rendered, with the route flowchart drawn by Mermaid.
    page.locator(".part.statusbar [aria-label^='standards-lint workflow']").first.click()
    frame = _wait(lambda: _view_frame(page, "Next"), "the status view", page)
    _wait(lambda: frame.locator("div.mermaid svg").count() > 0, "the Mermaid flowchart", page)
    text = frame.locator("main").inner_text()
    page.shots("status-view")
    assert "SYNCHRONIZING" in text and "SYNCHRONIZER" in text


def _view_frame(page, needle: str):
    for frame in page.frames:
        with contextlib.suppress(Exception):
            view = frame.locator("#standards-lint-view")
            if view.count() and needle in view.inner_text():
                return frame
    return None


@pytest.fixture(scope="module")
def bare_server(vsix, browser, tmp_path_factory):
    """code-server whose PATH holds no standards-lint."""
    _need_code_server()
    assert shutil.which("standards-lint", path=_without_standards_lint()) is None
    server = CodeServer(tmp_path_factory.mktemp("code-server-bare"), vsix, _without_standards_lint())
    yield server
    server.stop()


def _notifications(page) -> list:
    """Every notification of the window (the notification center's list)."""
    _command(page, "Notifications: Show Notifications")
    center = page.locator(".notifications-center .notification-list-item")
    with contextlib.suppress(Exception):
        center.first.wait_for(state="visible", timeout=5000)
    return [m.inner_text() for m in center.all()]


def test_without_standards_lint_one_notification_says_how_to_install_it(bare_server, window, demo):
    page = window(bare_server, demo)
    toast = page.locator(".notifications-toasts .notification-toast", has_text="standards-lint")
    toast.first.wait_for(state="visible")
    page.shots("notification")
    text = toast.first.inner_text()
    assert "executable was not found" in text and INSTALL_COMMAND in text, text
    _wait(lambda: "standards-lint: not installed" in page.locator(".part.statusbar").inner_text(),
          "the status bar to say it is not installed", page)
    time.sleep(5)  # no error loop: still one notification, and no other
    messages = _notifications(page)
    page.shots("notification-center")
    assert len(messages) == 1 and INSTALL_COMMAND in messages[0], messages
    # A command asked for says the same again instead of failing.
    _command(page, "standards-lint: Show where the workflow stands")
    center = page.locator(".notifications-center .notification-list-item", has_text=INSTALL_COMMAND)
    _wait(lambda: center.count() == 2, "the install command again", page)
    page.shots("after-a-command")


@pytest.fixture
def without_server_extra(tmp_path_factory) -> Path:
    """A virtual environment with standards-lint but not its server extra
    (no pygls): `standards-lint server` exits 2 with the install command."""
    venv = tmp_path_factory.mktemp("no-extra") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                          "-e", str(ROOT)], capture_output=True, text=True, timeout=600)
    if pip.returncode != 0:
        pytest.skip(f"could not install standards-lint into a fresh virtual environment: {pip.stderr[-500:]}")
    probe = subprocess.run([str(venv / "bin" / "standards-lint"), "server"], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 2 and INSTALL_COMMAND in probe.stderr, probe.stderr
    return venv


def test_a_venv_without_the_server_extra_gets_the_install_command(bare_server, window, demo, without_server_extra):
    (demo / ".venv").symlink_to(without_server_extra, target_is_directory=True)
    page = window(bare_server, demo)
    toast = page.locator(".notifications-toasts .notification-toast", has_text="standards-lint")
    toast.first.wait_for(state="visible")
    page.shots("notification")
    text = toast.first.inner_text()
    assert "cannot run the language server (exit status 2" in text and INSTALL_COMMAND in text, text
    assert ".venv/bin/standards-lint" in text, text
    time.sleep(3)
    messages = _notifications(page)
    page.shots("notification-center")
    assert len(messages) == 1, messages


def test_the_settings_reach_the_server_as_initialization_options(code_server, window, demo):
    (demo / ".vscode").mkdir()
    (demo / ".vscode" / "settings.json").write_text(json.dumps({"standardsLint.ignore": ["SL215", "SL9"]}),
                                                    encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "standards_lint", str(demo), "--format", "json", "--no-cache",
                          "--ignore", "SL215,SL9"], capture_output=True, text=True)
    want = sorted(f["code"] for f in json.loads(cli.stdout)["findings"])
    assert want == ["SL214", "SL353", "SL501"]
    page = window(code_server, demo)
    _show_problems(page)
    _wait(lambda: sorted(c for c, _ in _problems(page)) == want, f"the Problems panel to list {want}", page)
    time.sleep(2)  # and nothing more arrives
    page.shots("problems")
    assert sorted(c for c, _ in _problems(page)) == want


def test_fix_all_and_history_commands(code_server, window, demo, tmp_path):
    expected = tmp_path / "by-cli"
    shutil.copytree(DEMO, expected)
    subprocess.run([sys.executable, "-m", "standards_lint", str(expected), "--fix", "--no-cache"],
                   capture_output=True, text=True)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.email=t@example.test", "-c", "user.name=t",
                                                 "commit", "-q", "-m", "demo"]):
        subprocess.run(["git", *args], cwd=demo, check=True, capture_output=True)
    page = window(code_server, demo)
    _wait(lambda: _status_text(page), "the extension to start", page)
    _command(page, "standards-lint: Fix all safe fixes in the project")
    toast = page.locator(".notifications-toasts .notification-toast", has_text="Fixed 1 finding in 1 file.")
    toast.first.wait_for(state="visible")
    page.shots("fixed")
    assert "Found 5 problems" in toast.first.inner_text()
    assert (demo / STATE).read_bytes() == (expected / STATE).read_bytes()
    _wait(lambda: "5 errors" in _status_text(page), "the status bar to count 5 errors", page)
    _command(page, "standards-lint: Show the cycle's history")
    frame = _wait(lambda: _view_frame(page, "History"), "the history view", page)
    _wait(lambda: frame.locator("div.mermaid svg").count() > 0, "the Mermaid chart", page)
    page.shots("history")
    assert "add-user-search-20261130T024246Z-0db7f414" in frame.locator("main").inner_text()


def _server_pids(folder: Path) -> list:
    """The `standards-lint server` processes started for *folder* (their working folder)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            if b"server" in argv and any(a.endswith(b"standards-lint") for a in argv) and \
                    os.readlink(proc / "cwd") == str(folder):
                pids.append(int(proc.name))
    return pids


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="finds the server's process through /proc (Linux)")
def test_a_crashing_server_is_restarted_a_few_times_then_reported(code_server, window, demo):
    import signal

    page = window(code_server, demo)
    _show_problems(page)
    _wait(lambda: len(_problems(page)) == len(DEMO_CODES), "the demo's findings", page)
    (pid,) = _wait(lambda: _server_pids(demo), "the language server's process", page)
    for n in range(1, 5):
        os.kill(pid, signal.SIGKILL)
        if n <= 3:  # restarted: a new process, and the findings again
            (pid,) = _wait(lambda: (lambda p: p if p and p != [pid] else None)(_server_pids(demo)),
                           f"restart {n}", page)
            _wait(lambda: len(_problems(page)) == len(DEMO_CODES), f"the findings after restart {n}", page)
            time.sleep(1)
    toast = page.locator(".notifications-toasts .notification-toast", has_text="is not restarted")
    toast.first.wait_for(state="visible")
    page.shots("reported")
    assert "stopped 4 times in 3 minutes" in toast.first.inner_text()
    time.sleep(2)
    assert _server_pids(demo) == []
    # "Restart the server" starts it again.
    _command(page, "standards-lint: Restart the server")
    _wait(lambda: _server_pids(demo), "the restarted server", page)
    _wait(lambda: len(_problems(page)) == len(DEMO_CODES), "the demo's findings again", page)
    page.shots("restarted")

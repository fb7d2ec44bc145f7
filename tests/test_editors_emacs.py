"""Emacs with eglot and the configuration docs/editors.md gives, taken from
the page, where Emacs is installed (it is no Python package: on Debian 12,
``apt install emacs-nox elpa-eglot elpa-markdown-mode``; elsewhere this test
skips saying so).

``emacs --batch`` loads the snippet as ``init.el`` would be, opens the
copied demo's STATE.md and a synchronization record, and a small Lisp script
does what a person does: waits for the diagnostics, runs the quick fix of
SL501 (``eglot-code-actions``) and waits for the diagnostic to go.  Batch
Emacs has no command loop, so the script runs ``post-command-hook`` (where
``eglot-ensure`` connects), starts flymake and sends the change itself.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .test_editors_neovim import DEMO, STATE, doc_snippet, editor_env

RUN_TIMEOUT = 90

HARNESS = r"""
(require 'json)
(defvar sl-result nil)
(defun sl-finish (status)
  (push (cons 'status status) sl-result)
  (with-temp-file (getenv "SL_RESULT") (insert (json-encode sl-result)))
  (kill-emacs 0))
(defun sl-wait (pred)
  (let ((end (+ (float-time) (/ (string-to-number (getenv "SL_WAIT_MS")) 1000.0))))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.05))
    (funcall pred)))
(defun sl-codes ()
  (sort (mapcar (lambda (d)
                  (let ((text (flymake-diagnostic-text d)))
                    (format "%d %s" (1- (line-number-at-pos (flymake-diagnostic-beg d)))
                            (and (string-match "\\[\\([A-Z]+[0-9]+\\)\\]" text) (match-string 1 text)))))
                (flymake-diagnostics))
        #'string<))
(condition-case err
    (progn
      (find-file (getenv "SL_FILE"))
      (push (cons 'mode (symbol-name major-mode)) sl-result)
      (run-hooks 'post-command-hook)
      (unless (sl-wait (lambda () (bound-and-true-p eglot--managed-mode))) (sl-finish "no eglot"))
      (flymake-start)
      (unless (sl-wait (lambda () (flymake-diagnostics))) (sl-finish "no diagnostics"))
      (push (cons 'before (vconcat (sl-codes))) sl-result)
      (with-current-buffer (find-file-noselect (getenv "SL_OTHER"))
        (run-hooks 'post-command-hook)
        (sl-wait (lambda () (bound-and-true-p eglot--managed-mode))))
      (push (cons 'roots (vconcat (mapcar (lambda (s) (project-root (eglot--project s)))
                                          (apply #'append (hash-table-values eglot--servers-by-project)))))
            sl-result)
      (goto-char (point-min))
      (search-forward "`Active`: `true`")
      (backward-char 3)
      (eglot-code-actions (point) (point) "quickfix" t)
      (push (cons 'line (buffer-substring (line-beginning-position) (line-end-position))) sl-result)
      (eglot--signal-textDocument/didChange)
      (unless (sl-wait (lambda () (not (cl-find-if (lambda (c) (string-suffix-p " SL501" c)) (sl-codes)))))
        (sl-finish "SL501 stayed"))
      (push (cons 'after (vconcat (sl-codes))) sl-result)
      (sl-finish "ok"))
  (error (push (cons 'error (format "%S" err)) sl-result) (sl-finish "error")))
"""


def emacs() -> str:
    path = shutil.which("emacs")
    if path is None:
        pytest.skip("Emacs is not installed (Debian: apt install emacs-nox elpa-eglot elpa-markdown-mode)")
    probe = subprocess.run([path, "--batch", "--eval", "(package-activate-all)", "--eval",
                            "(progn (require 'eglot) (require 'markdown-mode) (princ \"ready\"))"],
                           capture_output=True, text=True, timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
    if "ready" not in probe.stdout:
        pytest.skip(f"Emacs has no eglot or markdown-mode (Debian: apt install elpa-eglot elpa-markdown-mode): "
                    f"{probe.stderr.strip()[-300:]}")
    return path


def test_emacs_with_the_documented_snippet_lints_and_applies_a_quick_fix(tmp_path):
    program = emacs()
    project = tmp_path / "demo"
    shutil.copytree(DEMO, project)
    (tmp_path / "init.el").write_text(doc_snippet("Emacs (eglot)", "elisp"), encoding="utf-8")
    (tmp_path / "harness.el").write_text(HARNESS, encoding="utf-8")
    other = next((project / ".standards" / "docs" / "synchronization").glob("*.md"))
    result = tmp_path / "result.json"
    env = editor_env(tmp_path / "home", SL_RESULT=str(result), SL_WAIT_MS="20000", SL_FILE=str(project / STATE),
                     SL_OTHER=str(other))
    # Packages are activated before init.el, as an interactive Emacs does.
    proc = subprocess.run([program, "--batch", "--eval", "(package-activate-all)", "-l", str(tmp_path / "init.el"),
                           "-l", str(tmp_path / "harness.el")], cwd=str(tmp_path), env=env, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL)
    assert result.is_file(), proc.stdout[-2000:] + proc.stderr[-2000:]
    seen = json.loads(result.read_text(encoding="utf-8"))
    assert seen["status"] == "ok", seen
    assert seen["mode"] == "markdown-mode"
    from standards_lint.engine.run import lint

    expected = sorted(f"{f.line - 1} {f.code}" for f in lint(str(DEMO), use_git=False).findings if f.path == STATE)
    assert sorted(seen["before"]) == expected
    # One server, for the folder holding .standards/, for both files (not
    # one per folder, as eglot makes outside git without the snippet's project).
    assert [Path(r).resolve() for r in seen["roots"]] == [project.resolve()]
    assert seen["line"] == "`Active`: `false`"
    assert sorted(seen["after"]) == [e for e in expected if not e.endswith(" SL501")]

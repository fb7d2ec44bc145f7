"""Real git repositories for the history tests: one commit per version."""

from __future__ import annotations

import os
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest


class Repo:
    def __init__(self, root: Path, start: str = "2026-10-01T16:28:34+00:00"):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.when = datetime.fromisoformat(start)
        self.shas: list[str] = []
        try:
            self.git("init", "-q", "-b", "main")
        except (OSError, subprocess.CalledProcessError):
            pytest.skip("git is unavailable")

    def env(self, author: str = "Dev") -> dict:
        stamp = self.when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+0000")
        return dict({k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
                    GIT_AUTHOR_NAME=author, GIT_AUTHOR_EMAIL=f"{author.lower()}@example.invalid",
                    GIT_COMMITTER_NAME=author, GIT_COMMITTER_EMAIL=f"{author.lower()}@example.invalid",
                    GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)

    def git(self, *args: str, author: str = "Dev") -> str:
        r = subprocess.run(["git", *args], cwd=self.root, env=self.env(author), check=True, capture_output=True,
                           text=True)
        return r.stdout

    def commit(self, files: dict, message: str = "move", *, author: str = "Dev", at: datetime | None = None,
               remove=()) -> str:
        if at is not None:
            self.when = at
        for rel, text in files.items():
            p = self.root.joinpath(*rel.split("/"))
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8", newline="")
        for rel in remove:
            self.root.joinpath(*rel.split("/")).unlink()
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, author=author)
        sha = self.git("rev-parse", "HEAD").strip()
        self.shas.append(sha)
        self.when += timedelta(hours=1)
        return sha

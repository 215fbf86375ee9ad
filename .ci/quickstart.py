"""The README's quickstart as a shell script: its commands exactly as written (every line of the bash blocks
under "## Quickstart"), for .ci/run to paste into a fresh virtual environment (issue 32).

    python3 .ci/quickstart.py > quickstart.sh && bash quickstart.sh
"""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def quickstart_commands(text: str | None = None) -> list[str]:
    """The command lines of the bash code blocks in the README's Quickstart section, in order."""
    text = README.read_text(encoding="utf-8") if text is None else text
    lines = text.splitlines()
    start = lines.index("## Quickstart")
    commands, fence = [], False
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.startswith("```"):
            fence = not fence and line[3:].strip() == "bash"
            continue
        if fence and line.strip() and not line.lstrip().startswith("#"):
            commands.append(line.strip())
    return commands


if __name__ == "__main__":
    print("set -euxo pipefail")
    print("\n".join(quickstart_commands()))

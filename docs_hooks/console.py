"""MkDocs hooks for the site: how console examples and inline code are shown.

Listed under ``hooks`` in mkdocs.yml; they run only when the site is built.
"""

from __future__ import annotations

import html
import re
from typing import Any

# Every command in the docs is written after "$ ".  Pygments' console lexer also takes "# " as
# a (root) prompt, so a table's header line of output ("#  hand  ...") would be coloured as a
# command; only "$ " is a prompt here.
_PROMPT = re.compile(r"^(\$ )(.*\n?)")

# A code span of one word: never broken, not even at a hyphen ("--rules" must not end a line
# at "-").  A span with spaces may break at its spaces only: each word is kept whole.
_CODE_SPAN = re.compile(r"<code>([^<]*)</code>")


def on_config(config: Any) -> Any:
    from pygments.lexers.shell import BashSessionLexer

    BashSessionLexer._ps1rgx = _PROMPT
    return config


def on_page_content(content: str, **_: Any) -> str:
    return _CODE_SPAN.sub(_unbroken, content)


def _unbroken(span: re.Match[str]) -> str:
    words = span.group(1).split(" ")
    kept = " ".join(
        f'<span class="word">{word}</span>' if "-" in html.unescape(word) else word
        for word in words
    )
    return f"<code>{kept}</code>"

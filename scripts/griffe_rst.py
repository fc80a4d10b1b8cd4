"""A griffe extension for the API reference (mkdocs.yml, mkdocstrings ``extensions``).

The docstrings are written for ``help()`` and Sphinx-style readers: reST roles such as
``:class:`~smuggle_envs.core.driver.Driver``` and reST simple tables (rows between ``====``
rules). mkdocstrings renders docstrings as Markdown, where both come out garbled; this turns a
role into inline code (``Driver``) and a simple table into a preformatted block, as it reads in a
terminal. The docstrings themselves stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|obj|exc|const):`(~?)([^`]+)`")
RULE = re.compile(r"^\s*=+(?:\s+=+)+\s*$")


def _role(m: re.Match) -> str:
    target = m.group(2).strip()
    return f"``{target.rsplit('.', 1)[-1] if m.group(1) else target}``"


def _tables(text: str) -> str:
    """Fence every reST simple table (three ``===`` rules: top, under the header, bottom)."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        if RULE.match(lines[i]):
            rules = [j for j in range(i, len(lines)) if RULE.match(lines[j])][:3]
            if len(rules) == 3:
                out += ["```text", *lines[i : rules[2] + 1], "```"]
                i = rules[2] + 1
                continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def markdown(text: str) -> str:
    return _tables(ROLE.sub(_role, text))


class RstToMarkdown(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if not obj.is_alias and obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)

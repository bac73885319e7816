"""Every rule the code cites is in the repository: each "RULES §n" names a section of
docs/rules/classic.md, each "MA §n" a section of docs/rules/modern-american.md and each "HF §n"
a section of docs/rules/hand-and-foot.md, as a heading
("### 1.12 Taking the discard pile") or a numbered rule ("* **1.12.6** A player holding...").

A citation may list or span several sections ("RULES §1.4, §1.5", "MA §4.2–§4.5",
"RULES §2.2 cutthroat, §3.3 void draw"); each of them must exist. A bare "§n" with no book
before it is not checked: it may belong to another page (NOTATION, BOTS.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
BOOKS = {"RULES": ROOT / "docs" / "rules" / "classic.md",
         "MA": ROOT / "docs" / "rules" / "modern-american.md",
         "HF": ROOT / "docs" / "rules" / "hand-and-foot.md"}
"""The page that states each book's rules, under the name the code cites it by."""
SEARCHED = ("src", "docs", "tests", "benchmarks", "examples", "scripts", "README.md",
            "ARCHITECTURE.md")
TEXT_SUFFIXES = frozenset({".py", ".pyi", ".pyx", ".pxd", ".md", ".rst", ".txt", ".js",
                           ".html", ".css", ".toml", ".cfg", ".ini", ".yml", ".yaml", ".mako"})
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "build", "dist", ".git"})
THIS_FILE = Path(__file__).resolve()
"""Left out of the search: its examples cite missing sections on purpose."""

NUMBER = r"(\d+(?:\.\d+)*)"
CITATION = re.compile(r"\b(RULES|MA|HF)\s+§\s?" + NUMBER)
"""A book's name, then a section: ``RULES §1.12.6``, ``MA §4``."""
FOLLOWER = re.compile(r"[^§()\[\].:A-Z0-9]{0,40}?§\s?" + NUMBER)
"""A further section of the same citation: what separates it from the one before holds no
capital letter (which would name another book, "NOTATION §4"), no digit, no bracket and no end
of sentence."""
HEADING = re.compile(r"^#{1,6}\s+" + NUMBER + r"\.?\s", re.MULTILINE)
NUMBERED_RULE = re.compile(r"^\s*[*-]\s+\*\*" + NUMBER + r"\*\*", re.MULTILINE)


class Citation(NamedTuple):
    """One section named in one place."""

    book: str
    section: str
    path: str
    line: int


def sections(text: str) -> set[str]:
    """The sections a rules page makes addressable: its numbered headings and numbered rules."""
    return ({m.group(1) for m in HEADING.finditer(text)}
            | {m.group(1) for m in NUMBERED_RULE.finditer(text)})


def citations(text: str, path: str = "<text>") -> Iterator[Citation]:
    """Every section a text cites, with the book it cites it from."""
    for match in CITATION.finditer(text):
        book = match.group(1)
        found = [(match.group(2), match.start())]
        end = match.end()
        while (more := FOLLOWER.match(text, end)) is not None:
            found.append((more.group(1), more.start(1)))
            end = more.end()
        for section, at in found:
            yield Citation(book, section, path, text.count("\n", 0, at) + 1)


def searched_files() -> Iterator[Path]:
    """The repository's text files where citations are written."""
    for name in SEARCHED:
        top = ROOT / name
        if top.is_file():
            yield top
        elif top.is_dir():
            for path in sorted(top.rglob("*")):
                parts = set(path.relative_to(ROOT).parts)
                if (path.is_file() and path.suffix in TEXT_SUFFIXES
                        and path != THIS_FILE and not parts & SKIPPED_DIRS
                        and not any(part.endswith(".egg-info") for part in parts)):
                    yield path


def unresolved(found: list[Citation], known: dict[str, set[str]]) -> list[str]:
    """The citations whose section the book's page does not have, one line each."""
    return [f"{c.path}:{c.line}: {c.book} §{c.section}"
            for c in found if c.section not in known[c.book]]


def known_sections() -> dict[str, set[str]]:
    return {book: sections(path.read_text(encoding="utf-8")) for book, path in BOOKS.items()}


def test_every_cited_section_is_in_its_rules_page() -> None:
    found = [citation
             for path in searched_files()
             for citation in citations(path.read_text(encoding="utf-8", errors="replace"),
                                       str(path.relative_to(ROOT)))]
    assert len(found) > 300  # the code cites its rules throughout; far fewer means a bad search
    assert {c.book for c in found} == set(BOOKS)
    missing = unresolved(found, known_sections())
    assert not missing, "cited sections that docs/rules/ does not have:\n" + "\n".join(missing)


def test_the_pages_number_their_sections_as_cited() -> None:
    known = known_sections()
    assert {"0.2", "1", "1.12", "1.12.6", "1.16.3", "6", "7.8", "8.2", "9.10"} <= known["RULES"]
    assert {"2.1", "4", "4.4.3", "11.1.5", "13.6", "16.2", "18.9", "19.3.2", "20.6"} <= known["MA"]
    assert "1.12.7" not in known["RULES"] and "21" not in known["MA"]


def test_a_section_missing_from_its_page_is_reported() -> None:
    text = ('"""Take the pile (RULES §1.12.6, §1.12.9; NOTATION §2) and meld (MA §4.4.3).\n'
            "# see MA §4.2–§4.9, and RULES §2.2 cutthroat, §3.4 void draw\n")
    found = list(citations(text, "example.py"))
    assert [(c.book, c.section, c.line) for c in found] == [
        ("RULES", "1.12.6", 1), ("RULES", "1.12.9", 1), ("MA", "4.4.3", 1),
        ("MA", "4.2", 2), ("MA", "4.9", 2), ("RULES", "2.2", 2), ("RULES", "3.4", 2)]
    assert unresolved(found, known_sections()) == [
        "example.py:1: RULES §1.12.9", "example.py:2: MA §4.9", "example.py:2: RULES §3.4"]


def test_a_citation_ends_where_another_book_or_the_sentence_begins() -> None:
    text = ("The deal (RULES §1.4, §1.5; NOTATION §4). The arena (BOTS.md §5.2).\n"
            "Asked once (MA §10.5). See §1.14 of the bots' page.\n"
            "(MA §1.4.5,\n    §8.4)\n")
    assert [(c.book, c.section) for c in citations(text)] == [
        ("RULES", "1.4"), ("RULES", "1.5"), ("MA", "10.5"), ("MA", "1.4.5"), ("MA", "8.4")]

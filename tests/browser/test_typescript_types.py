"""chunker.d.ts: a page author's typed code compiles under `tsc --noEmit --strict`, the
mistakes it marks are caught, and it declares every name the facade answers."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support.typescript import run_tsc

from tools.paths import NODE_MODULES, WEB

DECLARATIONS = WEB / "chunker.d.ts"
# Declared by a contract between helpers before the facade answers them: none now.
DECLARED_AHEAD: set[str] = set()


def check(folder: Path, declarations: Path) -> subprocess.CompletedProcess[str]:
    """The typed example compiled with `chunker-web` resolving to `declarations`."""
    return run_tsc(folder, paths={"chunker-web": [str(declarations)]})


def test_the_typed_example_compiles_strictly(built_site, tmp_path):
    result = check(tmp_path, DECLARATIONS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_loose_type_is_caught_by_the_examples_expected_errors(built_site, tmp_path):
    """Each `@ts-expect-error` must mark a real error: a strategy typed as any string
    leaves one unused, and tsc fails."""
    loose = DECLARATIONS.read_text(encoding="utf-8").replace(
        "strategy?: Strategy;", "strategy?: string;"
    )
    assert loose != DECLARATIONS.read_text(encoding="utf-8")
    (tmp_path / "loose.d.ts").write_text(loose, encoding="utf-8")
    result = check(tmp_path, tmp_path / "loose.d.ts")
    assert result.returncode != 0
    assert "Unused '@ts-expect-error' directive" in result.stdout


def declared_members(interface: str) -> set[str]:
    """The member names of `interface` in chunker.d.ts, read by TypeScript's own parser."""
    script = """
      const ts = require(process.argv[1]);
      const [file, name] = process.argv.slice(2);
      const source = ts.createSourceFile(file, require('fs').readFileSync(file, 'utf8'),
        ts.ScriptTarget.Latest);
      const found = source.statements.find(
        (s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
      console.log(JSON.stringify(found.members.map((m) => (m.name && m.name.text) || "")));
    """
    typescript = NODE_MODULES / "typescript"
    out = subprocess.run(
        ["node", "-e", script, str(typescript), str(DECLARATIONS), interface],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return set(json.loads(out))


def test_every_name_the_facade_answers_is_declared(chunker_page):
    answered = set(chunker_page.evaluate("Object.keys(api)"))
    declared = declared_members("Chunker")
    assert answered <= declared, f"not declared: {sorted(answered - declared)}"
    assert declared - answered <= DECLARED_AHEAD, f"declared, not answered: {declared - answered}"


def test_the_declared_options_are_the_bridges(built_site):
    """The option names in the types are the ones the bridge takes, plus `spans`."""
    from chunker.bridge import OPTION_NAMES

    for interface, operation in (
        ("SemanticChunkerConfig", "SemanticChunker.chunk"),
        ("ChunkOptions", "ChunkingEngine.chunk"),
        ("ChunkTurnsOptions", "chunkTurns"),
        ("SnippetOptions", "snippetAround"),
    ):
        spans = set() if operation == "snippetAround" else {"spans"}
        expected = set(OPTION_NAMES[operation]) | spans
        assert declared_members(interface) == expected, interface


def test_the_declared_index_methods_are_the_facades(chunker_page):
    """`LexicalIndex` and its constructor declare exactly the methods the facade's class has."""
    methods = chunker_page.evaluate(
        "Object.getOwnPropertyNames(api.LexicalIndex.prototype).filter((n) => n !== 'constructor')"
    )
    statics = chunker_page.evaluate(
        "Object.getOwnPropertyNames(api.LexicalIndex)"
        ".filter((n) => typeof api.LexicalIndex[n] === 'function')"
    )
    assert set(methods) == declared_members("LexicalIndex")
    assert set(statics) == declared_members("LexicalIndexConstructor") - {""}

"""`chunker evaluate`: its JSON equals Python's figures; a sweep's refused cell is reported;
a set that cannot be read is named with exit 1; a bad option value is a usage error."""

from __future__ import annotations

import json
import statistics

import pytest
from support.stability import DATA, GUIDE, NOTES, direct_shares, fixed

from chunker.cli import main
from chunker.evaluation import EvaluationSet, Question, sweep


@pytest.fixture
def set_file(tmp_path):
    corpora = {"cats": "Cats purr softly. Cats sleep all day.", "dogs": "Dogs bark loudly."}
    data = EvaluationSet(
        corpora,
        [Question("do cats sleep", "cats", ((18, 37),)), Question("bark", "dogs", ((0, 17),))],
    )
    path = tmp_path / "set.json"
    path.write_text(json.dumps(data.to_json()), encoding="utf-8")
    return data, path


def test_json_equals_python(set_file, capsys):
    data, path = set_file
    argv = ["evaluate", str(path), "--strategy", "fixed", "--chunk-size", "10,40"]
    assert main([*argv, "--chunk-overlap", "0,20", "--format", "json", "--k", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = sweep(
        data, {"chunk_size": [10, 40], "chunk_overlap": [0, 20]}, strategy="fixed", k=2
    ).to_dict()
    for cell in (*out["cells"], *expected["cells"]):
        if cell["report"]:
            del cell["report"]["seconds"]
    assert out == expected
    assert out["cells"][1]["field"] == "chunk_overlap"


def test_overlap_boundary_sweeps_its_names(set_file, capsys):
    data, path = set_file
    argv = ["evaluate", str(path), "--target-size", "12", "--overlap", "9"]
    assert main([*argv, "--overlap-boundary", "chars,word", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = sweep(
        data, {"target_size": [12], "overlap": [9], "overlap_boundary": ["chars", "word"]}
    ).to_dict()
    for cell in (*out["cells"], *expected["cells"]):
        del cell["report"]["seconds"]
    assert out == expected
    assert [cell["settings"]["overlap_boundary"] for cell in out["cells"]] == ["chars", "word"]
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--overlap-boundary", "word,words"])
    assert stopped.value.code == 2
    assert "'words' is not one of chars, word, sentence" in capsys.readouterr().err


def test_table_names_refused_cells(set_file, capsys):
    _, path = set_file
    assert (
        main(
            [
                "evaluate",
                str(path),
                "--strategy",
                "fixed",
                "--chunk-size",
                "10",
                "--chunk-overlap",
                "20",
            ]
        )
        == 0
    )
    assert "refused: chunk_overlap 20 must be less than chunk_size 10" in capsys.readouterr().out


def test_unreadable_set_is_named(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"corpora": {"a": "x"}, "questions": []}', encoding="utf-8")
    assert main(["evaluate", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"chunker: {path}: ")


def test_bad_option_value_is_usage_error(set_file, capsys):
    _, path = set_file
    with pytest.raises(SystemExit) as stopped:
        main(["evaluate", str(path), "--target-size", "4x"])
    assert stopped.value.code == 2
    assert "comma list" in capsys.readouterr().err


@pytest.mark.parametrize("span", [["0", "4"], [0.5, 4], [True, 4], [2, 2]])
def test_references_that_are_no_excerpt_are_named_not_turned_into_one(tmp_path, capsys, span):
    # Before, int() made each an excerpt ("0" and True as 0 and 1) and the set was scored.
    shape = {
        "corpora": {"cats": "Cats purr."},
        "questions": [{"question": "who purrs", "corpusId": "cats", "references": [span]}],
    }
    path = tmp_path / "set.json"
    path.write_text(json.dumps(shape), encoding="utf-8")
    assert main(["evaluate", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"chunker: {path}: ")
    assert "questions[0].references[0]" in captured.err


def test_the_stability_figure_is_python_s(tmp_path, capsys):
    path = tmp_path / "set.json"
    path.write_text(json.dumps(DATA.to_json()), encoding="utf-8")
    argv = ["evaluate", str(path), "--strategy", "fixed", "--chunk-size", "200"]
    assert (
        main(
            [
                *argv,
                "--chunk-overlap",
                "20",
                "--boundaries",
                "position,content",
                "--edits",
                "4",
                "--edit-seed",
                "5",
                "--format",
                "json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    for cell in out["cells"]:
        boundaries = cell["settings"]["boundaries"]
        shares = direct_shares(fixed(boundaries), [GUIDE, NOTES], 4, 5)
        assert cell["report"]["stability"] == pytest.approx(statistics.fmean(shares), abs=1e-12)
    assert main([*argv, "--edits", "4"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "stability" in head.split()
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--edits", "-1"])
    assert stopped.value.code == 2
    assert "argument --edits: must be at least 0, got -1" in capsys.readouterr().err

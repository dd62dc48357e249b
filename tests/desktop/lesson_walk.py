#!/usr/bin/env python3
"""lesson_walk.py — an input script (`attnplay gui --input`) that opens every step of every built-in lesson and,
where the step asks a question, answers it wrong and then right, with a `check_fit` after each: the step as it
opens, its feedback on a wrong answer, and its explanation with the panels the right answer reveals.

usage: lesson_walk.py LANG > script.json   (the lessons are read from data/lessons/*.json, in the manifest's order)
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def click(item):
    return [{"item": item}, {"down": True}, {"frames": 1}, {"up": True}, {"frames": 1}]


def answer(task, right):
    """Steps that give the task's right answer, or a wrong one, and press Check."""
    if task.get("choices"):
        index = task["answer"] if right else (1 if task["answer"] == 0 else 0)
        steps = click(f"lesson:choice:{index}")
    else:
        number = task["number"] if right else task["number"] + 10 * task["tolerance"] + 1
        steps = click("lesson:number") + [{"key": "A", "mods": ["Control"]}, {"key": "Backspace"},
                                          {"text": f"{number:g}"}, {"frames": 2}]
    return steps + click("lesson:check") + [{"frames": 6}]


def main(lang):
    manifest = json.loads((ROOT / "data" / "manifest.json").read_text(encoding="utf-8"))
    files = {json.loads(p.read_text(encoding="utf-8"))["id"]: p for p in (ROOT / "data" / "lessons").glob("*.json")}
    script = []
    for entry in manifest["lessons"]:
        lesson = json.loads(files[entry["id"]].read_text(encoding="utf-8"))
        for number, step in enumerate(lesson["steps"], start=1):
            where = f"{lesson['id']} step {number}"
            script += [{"state": {"lang": lang, "lesson": {"id": lesson["id"], "step": number}}}, {"frames": 6},
                       {"check_fit": where}]
            task = step.get("task")
            if task and task.get("kind") == "predict":
                script += answer(task, right=False) + [{"check_fit": where + ", a wrong answer"}]
                script += answer(task, right=True) + [{"check_fit": where + ", the right answer"}]
    json.dump(script, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")

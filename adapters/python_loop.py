#!/usr/bin/env python3
"""A small agent loop in Python with only the standard library (urllib, json), run by the bench
as a `command` adapter (adapters/python-loop.json) to prove nothing assumes Node.

Call the model at OPENAI_BASE_URL, run every tool call in the workspace (read_file, write_file,
list_files/list_dir, bash; no sandbox: bash runs on the host), append the results, stop on a
text answer or after HARNESS_MAX_TURNS model calls. Arguments that do not parse and unknown tools
come back to the model as error text. The final answer is printed on stdout; the task is on stdin.
"""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

WORKSPACE = os.environ.get("HARNESS_WORKSPACE", os.getcwd())


def path_of(args):
    return os.path.join(WORKSPACE, str(args.get("path", ".")))


def read_file(args):
    with open(path_of(args), encoding="utf-8") as f:
        lines = f.read().split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    first = max(1, int(args.get("offset", 1))) - 1
    limit = max(1, int(args.get("limit", 2000)))
    return "\n".join(f"{first + i + 1}\t{line}" for i, line in enumerate(lines[first:first + limit]))


def write_file(args):
    target = path_of(args)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(str(args.get("content", "")))
    return f"wrote {args.get('path')}"


def list_files(args):
    names = sorted(os.listdir(path_of(args)))
    return "\n".join(n + "/" if os.path.isdir(os.path.join(path_of(args), n)) else n for n in names)


def bash(args):
    done = subprocess.run(["/bin/bash", "-c", str(args["command"])], cwd=WORKSPACE,
                          capture_output=True, text=True, timeout=30)
    return f"exit code {done.returncode}\n{done.stdout}{done.stderr}".rstrip()


IMPLEMENTATIONS = {"read_file": read_file, "write_file": write_file, "list_files": list_files,
                   "list_dir": list_files, "bash": bash}


def chat(messages, tools):
    body = {"model": os.environ.get("HARNESS_MODEL", "model"), "messages": messages,
            "tools": [{"type": "function", "function": t} for t in tools]}
    request = urllib.request.Request(
        os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions",
        data=json.dumps(body).encode("utf-8"),
        headers={"content-type": "application/json",
                 "authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["choices"][0]["message"]


def main():
    tools = json.loads(os.environ.get("HARNESS_TOOLS", "[]"))
    names = {t["name"] for t in tools}
    max_turns = int(os.environ.get("HARNESS_MAX_TURNS", "20"))
    messages = [{"role": "user", "content": os.environ.get("HARNESS_TASK") or sys.stdin.read()}]
    for _ in range(max_turns):
        try:
            message = chat(messages, tools)
        except urllib.error.HTTPError as error:
            sys.stderr.write(f"model call failed: HTTP {error.code} {error.read().decode()}\n")
            return 1
        messages.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            print(message.get("content") or "")
            return 0
        for call in calls:
            name = call["function"]["name"]
            try:
                if name not in names:
                    raise ValueError(f"unknown tool {name}")
                if name not in IMPLEMENTATIONS:
                    raise ValueError(f"{name} is declared but this adapter has no implementation of it")
                content = IMPLEMENTATIONS[name](json.loads(call["function"].get("arguments") or "{}"))
            except Exception as error:  # a failed tool call is a result the model reads
                content = f"error: {error}"
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
    print("")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Says in a few lines why a `swift test` run failed: the runtime's fatal message, the crashed
thread's frames, the tests that started and never finished, and the failures recorded.

    summarize-test-log.py LOG
"""
import re
import sys

STARTED = [re.compile(r"^◇ Test (.+?) started\.$"), re.compile(r"^Test Case '(.+?)' started")]
ENDED = [re.compile(r"^[✔✘] Test (.+?) (passed|failed|skipped)"),
         re.compile(r"^Test Case '(.+?)' (passed|failed|skipped)")]
FAILURE = re.compile(r"^✘ Test .+ recorded an issue|: error: |^✘ Test .+ failed")
FRAME = re.compile(r"^\s*\d+\s+(\[\w+\]\s+)?0x[0-9a-f]+ |^\s+at /")


def match_any(patterns, line):
    for pattern in patterns:
        found = pattern.search(line)
        if found:
            return found.group(1)
    return None


def summarize(lines):
    fatal = [line for line in lines if "Fatal error" in line or "Program crashed" in line]
    running = {}
    failures = []
    crashed_frames = []
    in_crashed_thread = False
    for number, line in enumerate(lines):
        name = match_any(STARTED, line)
        if name:
            running[name] = number
        name = match_any(ENDED, line)
        if name:
            running.pop(name, None)
        if FAILURE.search(line):
            failures.append(line)
        if re.match(r"^Thread \d+( \".*\")? crashed:", line):
            in_crashed_thread = True
            crashed_frames.append(line)
        elif in_crashed_thread:
            if line.startswith("Thread ") or line.startswith("Registers") or line.startswith("Images"):
                in_crashed_thread = False
            elif FRAME.search(line):
                crashed_frames.append(line)

    report = []
    report += ["runtime: " + line for line in fatal[:3]]
    report += [line[:200] for line in crashed_frames[:12]]
    unfinished = sorted(running, key=running.get)[-3:]
    report += ["never finished: " + name for name in unfinished]
    report += ["failure: " + line[:200] for line in failures[:4]]
    return report or ["(nothing recognisable; read the log)"]


def main():
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        lines = [line.rstrip("\n") for line in log]
    print("\n".join(summarize(lines)))


if __name__ == "__main__":
    main()

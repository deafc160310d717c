"""What the Python benchmarks share (the C programs have bench_common.h): printing one result row or
note to stdout and appending it to $BENCH_ROWS, from which bench/summary.py prints the table, and
counting failed sanity checks (a benchmark exits non-zero when one failed)."""
import os
import sys

failures = 0


def fail(message: str) -> None:
    """A sanity check failed (e.g. Formwell's verdicts disagree with the baseline's)."""
    global failures
    failures += 1
    print(f"SANITY CHECK FAILED: {message}", file=sys.stderr, flush=True)


def append(line: str) -> None:
    path = os.environ.get("BENCH_ROWS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")


def row(rid: str, name: str, formwell: float, baseline: float, unit: str, target: float, judged: bool = True,
        higher_is_better: bool = True) -> None:
    """One result row: ratio = formwell / baseline; the target is a floor for a throughput
    (`higher_is_better`) and a ceiling for a time. `judged` False prints the verdict in parentheses."""
    ratio = formwell / baseline
    holds = ratio >= target if higher_is_better else ratio <= target
    verdict = "holds" if holds else "MISSES"
    if not judged:
        verdict = f"({verdict})"
    target_text = f"{chr(0x2265) if higher_is_better else chr(0x2264)}{target:g}x"
    print(f"row {rid:<3} {name:<52} formwell {formwell:9.1f} {unit}  baseline {baseline:9.1f} {unit}  "
          f"ratio {ratio:5.2f}x  target {target_text:<6} {verdict}", flush=True)
    append(f"{rid}\t{name}\t{formwell:.1f}\t{baseline:.1f}\t{unit}\t{ratio:.2f}\t{target_text}\t{verdict}")


def note(rid: str, text: str) -> None:
    """A remark printed under the rows (and below the table by summary.py)."""
    print(f"    {rid}: {text}", flush=True)
    append(f"#note\t{rid}\t{text}")

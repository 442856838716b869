#!/usr/bin/env python3
"""How `mapcompose batch` scales with cores.

Renders the scaling fixture (`MapComposeBench scaling-fixture DIR`: 8,000 maps of 512x512 from one
MBTiles file, fractional zooms 5-8) with `--jobs N`, each run into a fresh output folder, in two
ways: N jobs on N cores (the process's CPU affinity limited to the first N cores; `mapcompose` sizes
its pool by the affinity), and N jobs with all cores available. Prints, per run, wall time,
maps/s, the speed-up over one job on one core, CPU time (user + system), context switches
(voluntary / involuntary) and peak RSS. Then the machine's own ceiling: K independent processes
(`--jobs 1`, each pinned to a core of its own) over the first 500 maps, their maps/s together
against one such process alone.

Usage: scripts/bench/scaling.py MAPCOMPOSE FIXTURE-DIR [--jobs 1,2,4,8,12,16] [--out-root DIR]
       [--modes cores,all] [--repeats N]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run_batch(binary, fixture, jobs, cores, out_root, tag):
    """One batch run; returns (seconds, rusage, summary line)."""
    out = os.path.join(out_root, tag)
    cpus = sorted(os.sched_getaffinity(0))

    def limit():
        if cores is not None:
            os.sched_setaffinity(0, cpus[:cores])

    started = time.perf_counter()
    process = subprocess.Popen([binary, "batch", os.path.join(fixture, "manifest.jsonl"), "--out", out,
                                "--jobs", str(jobs)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               preexec_fn=limit)
    stderr = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        sys.exit(f"batch --jobs {jobs} failed ({status}):\n{stderr[-2000:]}")
    summary = [line for line in stderr.splitlines() if line.startswith("batch:")]
    return seconds, usage, summary[-1] if summary else ""


def independent_processes(binary, fixture, out_root):
    """K single-job processes at once, one per core: what the machine gives work that shares nothing."""
    manifest = os.path.join(fixture, "manifest-500.jsonl")
    with open(os.path.join(fixture, "manifest.jsonl")) as source, open(manifest, "w") as head:
        head.writelines(line for _, line in zip(range(500), source))
    cpus = sorted(os.sched_getaffinity(0))
    base = None
    for count in (1, 2, 4, 8, 16):
        if count > len(cpus):
            break
        started = time.perf_counter()
        processes = [subprocess.Popen([binary, "batch", manifest, "--out", os.path.join(out_root, f"alone-{count}-{i}"),
                                       "--jobs", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      preexec_fn=lambda cpu=cpus[i]: os.sched_setaffinity(0, [cpu]))
                     for i in range(count)]
        if any(process.wait() != 0 for process in processes):
            sys.exit("an independent batch process failed")
        seconds = time.perf_counter() - started
        rate = count * 500 / seconds
        base = base or rate
        print(f"{count:>2} independent processes of 500 maps, one core each: {seconds:6.2f} s, {rate:7.1f} maps/s, "
              f"{rate / base:5.2f}x", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("fixture")
    parser.add_argument("--jobs", default="1,2,4,8,12,16")
    parser.add_argument("--out-root", default=None, help="folder for the outputs (default: a temporary folder)")
    parser.add_argument("--modes", default="cores,all")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    available = len(os.sched_getaffinity(0))
    counts = [n for n in (int(x) for x in args.jobs.split(",")) if n <= available] or [1]
    maps = sum(1 for _ in open(os.path.join(args.fixture, "manifest.jsonl")))
    out_root = tempfile.mkdtemp(prefix="mapcompose-scaling-", dir=args.out_root)
    print(f"mapcompose batch, {maps} maps of 512x512 from one MBTiles file; {available} cores "
          f"({os.uname().machine}); outputs in {out_root}")
    print(f"{'jobs':>4} {'cores':>5} {'wall s':>7} {'maps/s':>8} {'speed-up':>8} {'CPU s':>7} "
          f"{'user':>6} {'sys':>6} {'vol cs':>8} {'invol cs':>8} {'RSS MiB':>7}")
    base = None
    try:
        for mode in args.modes.split(","):
            for jobs in counts:
                cores = jobs if mode == "cores" else None
                for repeat in range(args.repeats):
                    seconds, usage, _ = run_batch(args.binary, args.fixture, jobs, cores, out_root,
                                                  f"{mode}-{jobs}-{repeat}")
                    rate = maps / seconds
                    if base is None and mode == "cores" and jobs == 1:
                        base = rate
                    speedup = f"{rate / base:7.2f}x" if base else "       -"
                    print(f"{jobs:>4} {cores or available:>5} {seconds:7.2f} {rate:8.1f} {speedup:>8} "
                          f"{usage.ru_utime + usage.ru_stime:7.2f} {usage.ru_utime:6.2f} {usage.ru_stime:6.2f} "
                          f"{usage.ru_nvcsw:8d} {usage.ru_nivcsw:8d} {usage.ru_maxrss // 1024:7d}", flush=True)
        print("The machine's ceiling, work that shares nothing:")
        independent_processes(args.binary, args.fixture, out_root)
    finally:
        shutil.rmtree(out_root, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Reads bench/compare.sh's results.csv, prints the table (medians) and draws the charts into docs/."""
import csv
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

results, docs = sys.argv[1], sys.argv[2]
thr = defaultdict(list)
lat = defaultdict(list)
rr = defaultdict(list)
# The same over CURVE (compare.sh's curve section: kinds cthr and clat).
cthr = defaultdict(list)
clat = defaultdict(list)
inproc = defaultdict(list)
# compare.sh's spotify section: kinds spot_thr (one-way) and spot_rr (request/reply), impl in local and remote.
spot = defaultdict(list)
with open(results) as f:
    for row in csv.DictReader(f):
        if not row["value"]:
            continue
        key = (row["local"], row["remote"], int(row["size"]))
        if row["kind"] in ("thr", "cthr"):
            (thr if row["kind"] == "thr" else cthr)[key].append(float(row["value"]))
        elif row["kind"] == "rr":
            rr[key].append(float(row["value"]))
        elif row["kind"] == "inproc":
            inproc[key].append(float(row["value"]))
        elif row["kind"] in ("spot_thr", "spot_rr"):
            spot[(row["kind"], row["local"])].append((int(row["size"]), float(row["value"])))
        else:
            (lat if row["kind"] == "lat" else clat)[key].append(
                {k: float(row[k]) for k in ("value", "p50", "p90", "p99", "p999", "max") if row[k]})


def med(values):
    return statistics.median(values) if values else None


def median_lat(runs):
    # The run whose average is the median, so the percentiles shown belong to one run.
    runs = sorted(runs, key=lambda r: r["value"])
    return runs[(len(runs) - 1) // 2]


def fmt_rate(v):
    return "-" if v is None else f"{v:,.0f}"


def label(local, remote):
    return local if local == remote else f"{local} local / {remote} remote"


order = [("libzmq", "libzmq"), ("zmtp", "zmtp"), ("jeromq", "jeromq"), ("zmtp", "libzmq"), ("libzmq", "zmtp")]


def print_thr(name, data):
    if not data:
        return
    print("| test | size [B] | implementation | msg/s | MB/s | ratio ours/libzmq | runs |")
    print("|---|---:|---|---:|---:|---:|---|")
    for size in sorted({k[2] for k in data}):
        base = med(data.get(("libzmq", "libzmq", size), []))
        for local, remote in order:
            values = data.get((local, remote, size))
            if not values:
                continue
            m = med(values)
            ratio = f"{m / base:.2f}" if base and "zmtp" in (local, remote) else ""
            runs = ", ".join(f"{v:,.0f}" for v in values)
            print(f"| {name} | {size} | {label(local, remote)} | {fmt_rate(m)} | {m * size / 1e6:,.1f} | {ratio} "
                  f"| {runs} |")
    print()


def print_lat(name, data):
    if not data:
        return
    print("| test | size [B] | implementation | average latency [us] | p50 | p90 | p99 | p99.9 | max "
          "| ratio ours/libzmq | runs (avg) |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for size in sorted({k[2] for k in data}):
        base = data.get(("libzmq", "libzmq", size))
        base_avg = median_lat(base)["value"] if base else None
        for local, remote in order:
            runs = data.get((local, remote, size))
            if not runs:
                continue
            r = median_lat(runs)
            ratio = f"{r['value'] / base_avg:.2f}" if base_avg and local == "zmtp" else ""
            avgs = ", ".join(f"{x['value']:.1f}" for x in runs)
            print(f"| {name} | {size} | {label(local, remote)} | {r['value']:.1f} | {r['p50']:.1f} | {r['p90']:.1f} "
                  f"| {r['p99']:.1f} | {r['p999']:.1f} | {r['max']:.0f} | {ratio} | {avgs} |")
    print()


sizes = sorted({k[2] for k in thr})
print_thr("throughput", thr)
print_lat("latency", lat)
print_thr("CURVE throughput", cthr)
print_lat("CURVE latency", clat)

# Request/reply: local is the ROUTER (rr_server), remote the DEALER (rr_client) keeping requests in flight.
if rr:
    print("| test | size [B] | server / client | req/s | ratio ours/libzmq | runs |")
    print("|---|---:|---|---:|---:|---|")
for size in sorted({k[2] for k in rr}):
    base = med(rr.get(("libzmq", "libzmq", size), []))
    for server, client in order:
        values = rr.get((server, client, size))
        if not values:
            continue
        m = med(values)
        ratio = f"{m / base:.2f}" if base and "zmtp" in (server, client) else ""
        runs = ", ".join(f"{v:,.0f}" for v in values)
        print(f"| request/reply | {size} | {server} / {client} | {fmt_rate(m)} | {ratio} | {runs} |")

# inproc: both ends in one JVM (no libzmq row), so the ratio is to JeroMQ.
if inproc:
    print()
    print("| test | size [B] | implementation | msg/s (seconds 4 on) | ratio ours/jeromq | runs |")
    print("|---|---:|---|---:|---:|---|")
for size in sorted({k[2] for k in inproc}):
    base = med(inproc.get(("jeromq", "jeromq", size), []))
    for impl in ("zmtp", "jeromq"):
        values = inproc.get((impl, impl, size))
        if not values:
            continue
        m = med(values)
        ratio = f"{m / base:.2f}" if base and impl == "zmtp" else ""
        runs = ", ".join(f"{v:,.0f}" for v in values)
        print(f"| inproc throughput | {size} | {impl} | {fmt_rate(m)} | {ratio} | {runs} |")

# Spotify netty4-zmtp 0.4.0's README shapes, each in one JVM: the ratio is to Spotify's.
if spot:
    print()
    print("| test | implementation | size [B] | per s (seconds 4 on) | ratio ours/spotify | runs |")
    print("|---|---|---:|---:|---:|---|")
for kind, test in (("spot_thr", "one-way 100 B"), ("spot_rr", "req/rep 6 frames, 1000 in flight")):
    base = med([v for _, v in spot.get((kind, "spotify"), [])])
    for impl in ("spotify", "zmtp-codec", "zmtp-socket"):
        runs = spot.get((kind, impl))
        if not runs:
            continue
        values = [v for _, v in runs]
        m = med(values)
        ratio = f"{m / base:.2f}" if base and impl != "spotify" else ""
        print(f"| {test} | {impl} | {runs[0][0]} | {fmt_rate(m)} | {ratio} | {', '.join(f'{v:,.0f}' for v in values)} |")

# Charts only for the sections that ran (compare.sh SECTIONS=...), so a narrowed run leaves the others' charts.
# Throughput against message size, one line per implementation (same-implementation pairs).
if thr:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    for impl in ("libzmq", "zmtp", "jeromq"):
        xs = [s for s in sizes if (impl, impl, s) in thr]
        if not xs:
            continue
        ys = [med(thr[(impl, impl, s)]) for s in xs]
        ax1.plot(xs, ys, marker="o", label=impl)
        ax2.plot(xs, [y * s * 8 / 1e9 for y, s in zip(ys, xs)], marker="o", label=impl)
    for ax, title, unit in ((ax1, "messages/s", "msg/s"), (ax2, "bandwidth", "Gbit/s")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size [B]")
        ax.set_ylabel(unit)
        ax.set_title(f"one-way throughput over tcp loopback: {title} (median)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(f"{docs}/perf-throughput.png", dpi=100)

# Latency percentiles (half round trip) per implementation and size.
lat_sizes = sorted({k[2] for k in lat})
if lat_sizes:
    fig, axes = plt.subplots(1, len(lat_sizes), figsize=(6 * len(lat_sizes), 4.5), squeeze=False)
    names = ("p50", "p90", "p99", "p999")
    for ax, size in zip(axes[0], lat_sizes):
        impls = [i for i in ("libzmq", "zmtp", "jeromq") if (i, i, size) in lat]
        width = 0.8 / max(1, len(impls))
        for n, impl in enumerate(impls):
            r = median_lat(lat[(impl, impl, size)])
            ax.bar([x + n * width for x in range(len(names))], [r[k] for k in names], width, label=impl)
        ax.set_xticks([x + width * (len(impls) - 1) / 2 for x in range(len(names))])
        ax.set_xticklabels(["p50", "p90", "p99", "p99.9"])
        ax.set_yscale("log")
        ax.set_ylabel("half round trip [us]")
        ax.set_title(f"REQ/REP latency percentiles, {size} B (median run)")
        ax.grid(True, axis="y", which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(f"{docs}/perf-latency.png", dpi=100)

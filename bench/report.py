"""Reads bench/compare.sh's results.csv, prints the tables (medians of the runs) and draws the charts.

Every table puts each cell's steady-state and cold figures side by side, in columns labelled "steady" and "cold":
  steady  past the JVM's warm-up (untimed messages, round trips or requests first, or seconds 4 on of a per-second run);
  cold    a fresh JVM and a short run, JIT warm-up included (or seconds 1-3 of a per-second run).
Usage: report.py results.csv chart-directory
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

results, charts = sys.argv[1], sys.argv[2]
MODES = ("steady", "cold")
# rows[kind][(mode, local, remote, size)] = list of runs; a run is a float (rates) or a dict (latency).
rows = defaultdict(lambda: defaultdict(list))
with open(results) as f:
    for row in csv.DictReader(f):
        if not row["value"]:
            continue
        # Spotify's request shape is 178 B, ours 176 B (their frames can't be matched to the byte): one cell, size 0.
        size = 0 if row["kind"] == "spot_rr" else int(row["size"])
        key = (row["mode"], row["local"], row["remote"], size)
        if row["kind"] in ("lat", "clat", "ilat"):
            rows[row["kind"]][key].append(
                {k: float(row[k]) for k in ("value", "p50", "p90", "p99", "p999", "max") if row[k]})
        else:
            rows[row["kind"]][key].append(float(row["value"]))


def med(values):
    return statistics.median(values) if values else None


def median_lat(runs):
    # The run whose average is the median, so the percentiles shown belong to one run.
    if not runs:
        return None
    runs = sorted(runs, key=lambda r: r["value"])
    return runs[(len(runs) - 1) // 2]


def rate(v):
    if v is None:
        return "-"
    if v >= 1e6:
        return f"{v / 1e6:.2f} M"
    if v >= 1e3:
        return f"{v / 1e3:.1f} k"
    return f"{v:.0f}"


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "-"


def sizes_of(data):
    return sorted({k[3] for k in data})


def runs_line(values):
    return ", ".join(rate(v) for v in values)


NAMES = {"libzmq": "libzmq", "zmtp": "ours", "zmtpv": "ours + Vector API", "zmtpu": "ours on io_uring",
         "jeromq": "JeroMQ"}
# Ours as run (and, for CURVE, with the Vector API too; on io_uring): each gets a ratio to libzmq.
OURS = ("zmtp", "zmtpv", "zmtpu")


def print_thr(title, data, impls):
    """One row per size: per mode, each implementation's msg/s, and ours / libzmq."""
    if not data:
        return
    print(f"### {title}")
    print()
    jeromq = "jeromq" in impls
    ours = [i for i in OURS if i in impls]
    print("msg/s, median of the runs; ratio = ours / libzmq" + ("; / JeroMQ = ours / JeroMQ." if jeromq else "."))
    print()
    head, align = ["size [B]"], ["---:"]
    for mode in MODES:
        head += [f"{mode}: {NAMES[i]}" for i in impls]
        head += [f"{mode}: ratio" if len(ours) == 1 else f"{mode}: {NAMES[i]} / libzmq" for i in ours]
        head += [f"{mode}: / JeroMQ"] if jeromq else []
        align += ["---:"] * (len(impls) + len(ours) + jeromq)
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(align) + "|")
    for size in sizes_of(data):
        cells = [str(size)]
        for mode in MODES:
            m = {i: med(data.get((mode, i, i, size), [])) for i in impls}
            cells += [rate(m[i]) for i in impls] + [ratio(m.get(i), m.get("libzmq")) for i in ours]
            if jeromq:
                cells += [ratio(m.get("zmtp"), m.get("jeromq"))]
        print("| " + " | ".join(cells) + " |")
    print()
    mixed = [(l, r) for l, r in (("zmtp", "libzmq"), ("libzmq", "zmtp"), ("zmtpv", "libzmq"), ("libzmq", "zmtpv"))
             if any((mode, l, r, s) in data for mode in MODES for s in sizes_of(data))]
    if mixed:
        print("Mixed pairs (receiver / sender); ratio = the pair / libzmq to libzmq:")
        print()
        print("| size [B] | receiver / sender | steady: msg/s | steady: ratio | cold: msg/s | cold: ratio |")
        print("|---:|---|---:|---:|---:|---:|")
        for size in sizes_of(data):
            for l, r in mixed:
                if not any((mode, l, r, size) in data for mode in MODES):
                    continue
                cells = [str(size), f"{NAMES[l]} / {NAMES[r]}"]
                for mode in MODES:
                    m = med(data.get((mode, l, r, size), []))
                    cells += [rate(m), ratio(m, med(data.get((mode, "libzmq", "libzmq", size), [])))]
                print("| " + " | ".join(cells) + " |")
        print()


def print_lat(title, data, impls):
    """One row per size and implementation: per mode, average and percentiles of half round trips."""
    if not data:
        return
    print(f"### {title}")
    print()
    jeromq = "jeromq" in impls
    print("Half round trip in us (the run with the median average); ratio = ours / libzmq of the averages"
          + ("; / JeroMQ = ours / JeroMQ." if jeromq else "."))
    print()
    head, align = ["size [B]", "implementation"], ["---:", "---"]
    for mode in MODES:
        head += [f"{mode}: avg", "p50", "p99", "p99.9", "max", f"{mode}: ratio"] + ([f"{mode}: / JeroMQ"] if jeromq else [])
        align += ["---:"] * (6 + jeromq)
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(align) + "|")
    for size in sizes_of(data):
        for impl in impls:
            if not any((mode, impl, impl, size) in data for mode in MODES):
                continue
            cells = [str(size), NAMES[impl]]
            for mode in MODES:
                r = median_lat(data.get((mode, impl, impl, size)))
                base = median_lat(data.get((mode, "libzmq", "libzmq", size)))
                if r is None:
                    cells += ["-"] * (6 + jeromq)
                    continue
                cells += [f"{r['value']:.1f}", f"{r['p50']:.1f}", f"{r['p99']:.1f}", f"{r['p999']:.1f}",
                          f"{r['max']:.0f}",
                          ratio(r["value"], base["value"] if base else None) if impl in OURS else ""]
                if jeromq:
                    jq = median_lat(data.get((mode, "jeromq", "jeromq", size)))
                    cells += [ratio(r["value"], jq["value"] if jq else None) if impl == "zmtp" else ""]
            print("| " + " | ".join(cells) + " |")
    print()


short = {"Spotify netty4-zmtp 0.4.0": "Spotify"}


def print_pairs(title, data, unit, pairs, base_pair, names):
    """One row per size and pair (or implementation): per mode, the rate and its ratio to base_pair's."""
    if not data:
        return
    print(f"### {title}")
    print()
    print(f"{unit}, median of the runs; ratio = the row / the {short.get(names[base_pair], names[base_pair])} row.")
    print()
    print(f"| size [B] | {'implementation' if pairs[0][0] == pairs[0][1] else 'server / client'} "
          "| steady | steady: ratio | cold | cold: ratio |")
    print("|---:|---|---:|---:|---:|---:|")
    for size in sizes_of(data):
        for pair in pairs:
            if not any((mode, *pair, size) in data for mode in MODES):
                continue
            cells = [str(size) if size else "176 (ours), 178 (Spotify)", names[pair]]
            for mode in MODES:
                m = med(data.get((mode, *pair, size), []))
                base = med(data.get((mode, *base_pair, size), []))
                cells += [rate(m), ratio(m, base) if pair != base_pair else ""]
            print("| " + " | ".join(cells) + " |")
    print()


# compare.sh's TRANSPORT (tcp, ipc or ws): what the thr, lat, rr and curve sections ran over.
TP = os.environ.get("TRANSPORT", "tcp")
print_thr(f"One-way throughput, {TP} (PUSH -> PULL, two processes)", rows["thr"],
          [i for i in ("libzmq", "zmtp", "zmtpu", "jeromq") if any(k[1] == i for k in rows["thr"])])
print_lat(f"Latency, {TP} (REQ <-> REP, two processes)", rows["lat"],
          [i for i in ("libzmq", "zmtp", "zmtpu", "jeromq") if any(k[1] == i for k in rows["lat"])])
rr_pairs = [("libzmq", "libzmq"), ("zmtp", "zmtp"), ("zmtp", "libzmq"), ("libzmq", "zmtp")]
print_pairs(f"Request/reply, {TP} (DEALER rr_client -> ROUTER rr_server, two processes)", rows["rr"], "req/s",
            rr_pairs, ("libzmq", "libzmq"), {p: f"{NAMES[p[0]]} / {NAMES[p[1]]}" for p in rr_pairs})
curve_impls = [i for i in ("libzmq", "zmtp", "zmtpv") if any(k[1] == i for k in rows["cthr"])]
print_thr(f"One-way throughput over CURVE, {TP}", rows["cthr"], curve_impls)
print_lat(f"Latency over CURVE, {TP}", rows["clat"],
          [i for i in ("libzmq", "zmtp", "zmtpv") if any(k[1] == i for k in rows["clat"])])
print_thr("One-way throughput, ipc", rows["ithr"], ["libzmq", "zmtp"])
print_lat("Latency, ipc", rows["ilat"], ["libzmq", "zmtp"])
print_pairs("inproc throughput (PUSH -> PULL, one JVM; steady: seconds 4 on, cold: seconds 1-3 of the same run)",
            rows["inproc"], "msg/s", [("zmtp", "zmtp"), ("jeromq", "jeromq")], ("jeromq", "jeromq"),
            {("zmtp", "zmtp"): "ours", ("jeromq", "jeromq"): "JeroMQ"})
spot_names = {("spotify", "spotify"): "Spotify netty4-zmtp 0.4.0", ("zmtp-codec", "zmtp-codec"): "ours, codec only",
              ("zmtp-socket", "zmtp-socket"): "ours, socket layer"}
for kind, title, unit in (("spot_thr", "one-way", "msg/s"),
                          ("spot_rr", "request/reply, 6 frames, 1000 in flight", "req/s")):
    print_pairs(f"Spotify's shape, {title} (one JVM; steady: seconds 4 on, cold: seconds 1-3 of the same run)",
                rows[kind], unit, list(spot_names), ("spotify", "spotify"), spot_names)

# Every run, for the record.
print("### Every run")
print()
print("| test | mode | receiver or server / sender or client | size [B] | runs |")
print("|---|---|---|---:|---|")
for kind in rows:
    for (mode, l, r, size), values in sorted(rows[kind].items(), key=lambda kv: (kv[0][3], kv[0][0], kv[0][1:3])):
        if values and isinstance(values[0], dict):
            text = ", ".join(f"{v['value']:.1f} us (p99 {v['p99']:.1f})" for v in values)
        else:
            text = runs_line(values)
        print(f"| {kind} | {mode} | {l} / {r} | {size or '176-178'} | {text} |")
print()

# Charts only for the sections that ran (compare.sh SECTIONS=...), so a narrowed run leaves the others' charts.
colors = {"libzmq": "tab:blue", "zmtp": "tab:orange", "jeromq": "tab:green"}
thr = rows["thr"]
if thr:
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    for impl in ("libzmq", "zmtp", "jeromq"):
        for mode, style in (("steady", "-"), ("cold", "--")):
            xs = [s for s in sizes_of(thr) if (mode, impl, impl, s) in thr]
            if not xs:
                continue
            ys = [med(thr[(mode, impl, impl, s)]) for s in xs]
            kw = dict(marker="o", linestyle=style, color=colors[impl], label=f"{NAMES[impl]}, {mode}")
            ax1.plot(xs, ys, **kw)
            ax2.plot(xs, [y * s * 8 / 1e9 for y, s in zip(ys, xs)], **kw)
    for ax, title, unit in ((ax1, "messages/s", "msg/s"), (ax2, "bandwidth", "Gbit/s")):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size [B]")
        ax.set_ylabel(unit)
        ax.set_title(f"one-way throughput, tcp loopback: {title} (median)", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{charts}/perf-throughput.png", dpi=100)

# Latency percentiles (half round trip) per implementation, size and mode.
lat = rows["lat"]
lat_sizes = sizes_of(lat)
if lat_sizes:
    fig, axes = plt.subplots(len(MODES), len(lat_sizes), figsize=(6 * len(lat_sizes), 8.5), squeeze=False)
    names = ("p50", "p90", "p99", "p999")
    for row_axes, mode in zip(axes, MODES):
        for ax, size in zip(row_axes, lat_sizes):
            impls = [i for i in ("libzmq", "zmtp", "jeromq") if (mode, i, i, size) in lat]
            width = 0.8 / max(1, len(impls))
            for n, impl in enumerate(impls):
                r = median_lat(lat[(mode, impl, impl, size)])
                ax.bar([x + n * width for x in range(len(names))], [r[k] for k in names], width,
                       label=NAMES[impl], color=colors[impl])
            ax.set_xticks([x + width * (len(impls) - 1) / 2 for x in range(len(names))])
            ax.set_xticklabels(["p50", "p90", "p99", "p99.9"])
            ax.set_yscale("log")
            ax.set_ylabel("half round trip [us]")
            ax.set_title(f"REQ/REP latency, {size} B, {mode} (median run)", fontsize=10)
            ax.grid(True, axis="y", which="both", alpha=0.3)
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{charts}/perf-latency.png", dpi=100)

# Ours / libzmq (or / JeroMQ, / Spotify where libzmq has no counterpart), steady beside cold, one bar pair per cell.
summary = []


def add(label, kind, pair, base_pair, size):
    data = rows[kind]
    vals = []
    for mode in MODES:
        a, b = data.get((mode, *pair, size)), data.get((mode, *base_pair, size))
        if not a or not b:
            vals.append(None)
        elif isinstance(a[0], dict):
            # Latency: libzmq / ours, so that above 1 is better for us everywhere on the chart.
            vals.append(median_lat(b)["value"] / median_lat(a)["value"])
        else:
            vals.append(med(a) / med(b))
    if any(v is not None for v in vals):
        summary.append((label, vals))


for s in sizes_of(rows["thr"]):
    add(f"one-way {s} B", "thr", ("zmtp", "zmtp"), ("libzmq", "libzmq"), s)
for s in sizes_of(rows["lat"]):
    add(f"latency {s} B (inverse)", "lat", ("zmtp", "zmtp"), ("libzmq", "libzmq"), s)
for s in sizes_of(rows["rr"]):
    add(f"req/reply {s} B", "rr", ("zmtp", "zmtp"), ("libzmq", "libzmq"), s)
for s in sizes_of(rows["cthr"]):
    add(f"CURVE one-way {s} B", "cthr", ("zmtp", "zmtp"), ("libzmq", "libzmq"), s)
    add(f"CURVE one-way {s} B, Vector API", "cthr", ("zmtpv", "zmtpv"), ("libzmq", "libzmq"), s)
for s in sizes_of(rows["ithr"]):
    add(f"ipc one-way {s} B", "ithr", ("zmtp", "zmtp"), ("libzmq", "libzmq"), s)
for s in sizes_of(rows["ilat"]):
    add(f"ipc latency {s} B (inverse)", "ilat", ("zmtp", "zmtp"), ("libzmq", "libzmq"), s)
for s in sizes_of(rows["inproc"]):
    add(f"inproc {s} B vs JeroMQ", "inproc", ("zmtp", "zmtp"), ("jeromq", "jeromq"), s)
for kind, name in (("spot_thr", "one-way"), ("spot_rr", "req/reply")):
    for s in sizes_of(rows[kind]):
        add(f"Spotify's shape, {name}: our codec", kind, ("zmtp-codec", "zmtp-codec"), ("spotify", "spotify"), s)
        add(f"Spotify's shape, {name}: our sockets", kind, ("zmtp-socket", "zmtp-socket"), ("spotify", "spotify"), s)
if summary:
    fig, ax = plt.subplots(figsize=(10, 0.35 * len(summary) + 1.5))
    ys = range(len(summary))
    for n, (mode, color) in enumerate((("steady", "tab:orange"), ("cold", "tab:gray"))):
        ax.barh([y + n * 0.4 for y in ys], [v[n] or 0 for _, v in summary], 0.4, label=mode, color=color)
    ax.set_yticks([y + 0.2 for y in ys])
    ax.set_yticklabels([label for label, _ in summary], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(1, color="black", linewidth=0.8)
    ax.set_xlabel("ours / libzmq (latency: libzmq / ours; inproc: / JeroMQ; Spotify's shape: / Spotify); above 1: we are faster")
    ax.set_title("ours relative to the others, steady state and cold (median of the runs)", fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{charts}/perf-summary.png", dpi=100)

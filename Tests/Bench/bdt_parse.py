#!/usr/bin/env python3
"""Home Assistant's parser over the benchmark corpus, measured the way
accessory-bench measures ours: nanoseconds per payload, the median of R
timed passes over every payload (R = 0: one untimed pass, for callgrind).

  bdt_parse.py CORPUS cached|uncached [--limit N] [--runs R]

`cached` is bluetooth_data_tools.parse_advertisement_data_bytes, what Home
Assistant calls (an LRU cache in front: the corpus's payloads are distinct,
so it never hits); `uncached` is the parse behind it.
"""
import argparse
import statistics
import time

import bluetooth_data_tools
from bluetooth_data_tools import gap


def read_corpus(path):
    data = open(path, "rb").read()
    payloads, offset = [], 0
    while offset < len(data):
        length = data[offset]
        payloads.append(bytes(data[offset + 1:offset + 1 + length]))
        offset += 1 + length
    return payloads


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("variant", choices=["cached", "uncached"])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    payloads = read_corpus(args.corpus)[:args.limit]
    parse = (bluetooth_data_tools.parse_advertisement_data_bytes if args.variant == "cached"
             else gap._uncached_parse_advertisement_bytes)

    def one_pass():
        found = 0
        for payload in payloads:
            found += len(parse(payload)[3])  # manufacturer data, as accessory-bench's checksum counts
        return found

    if args.runs == 0:
        print(f"bdt-{args.variant} items={len(payloads)} checksum={one_pass()}")
        return
    samples = []
    for _ in range(args.runs):
        if args.variant == "cached":
            parse.cache_clear()
        start = time.perf_counter_ns()
        checksum = one_pass()
        samples.append((time.perf_counter_ns() - start) / max(1, len(payloads)))
    print(f"bdt-{args.variant} items={len(payloads)} runs={args.runs} "
          f"ns_per_item={statistics.median(samples):.1f} checksum={checksum}")


if __name__ == "__main__":
    main()

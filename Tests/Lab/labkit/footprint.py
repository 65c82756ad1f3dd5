"""A process's footprint from /proc: what the lab scenario idle-footprint and `make bench`
(on the host) both read, so the two report the same figures the same way."""

import os


def thread_switches(pid):
    """Voluntary and involuntary context switches of every thread: each one a wake-up."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as status:
            for line in status:
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
    return total


def memory_kb(pid):
    """{"VmRSS": kB, "RssAnon": kB}: resident memory, and the anonymous part of it."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                values[key] = int(rest.split()[0])
    return values

"""An accessory that rotates its resolvable private address (lab-peripheral --irk --rotate-seconds),
followed by an app: the rotation number each advertisement carries, read from the app's output."""

import re
import select
import time

# The IRK lab-peripheral makes its addresses from, in the scenarios that share it.
IRK = "ec0234a357c8ad05341010a60a397d9b"


def rotation_of(line):
    """The rotation number in an `advertisement:` line's data (manufacturer data FFFF), or None."""
    if not line.startswith("advertisement:"):
        return None
    match = re.search(r"data=(?:[0-9a-f]{2})*?04ffffff([0-9a-f]{2})", line)
    return int(match.group(1), 16) if match else None


class RotationReader:
    """An app's `--follow` output, line by line, with the rotations its advertisements came from."""

    def __init__(self, test, app):
        self.test = test
        self.app = app
        self.lines = []
        self.seen = []

    def until(self, done, deadline):
        """Reads lines until `done(seen)` holds; fails at `deadline` (time.monotonic()) or if the app goes quiet."""
        while not done(self.seen):
            self.test.assertLess(time.monotonic(), deadline, "rotations seen: " + repr(self.seen))
            ready, _, _ = select.select([self.app.stdout], [], [], max(0, deadline - time.monotonic()))
            text = self.app.stdout.readline() if ready else ""
            if not text:
                raise AssertionError("the app ended or went quiet:\n" + self.text())
            self.lines.append(text)
            self.test.lab.log("app: " + text.rstrip())
            if rotation_of(text) is not None:
                self.seen.append(rotation_of(text))

    def text(self):
        return "".join(self.lines)

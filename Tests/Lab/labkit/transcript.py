"""What the VM tells the person at the host: lines written to a file the host tails.

The file lives in the run directory shared with the host (vng --rwdir), so the
host shows progress live and still has it if the VM dies half way.
"""

import sys


class Transcript:
    def __init__(self, path):
        self._file = open(path, "a", buffering=1, encoding="utf-8")

    def say(self, text=""):
        for line in str(text).splitlines() or [""]:
            self._file.write(line + "\n")
            sys.stdout.write(line + "\n")  # the VM console too: the host keeps it as console.log
        self._file.flush()
        sys.stdout.flush()

    def close(self):
        self._file.close()


class Tee:
    """A text stream that writes to several others (unittest's runner writes to one stream)."""

    def __init__(self, *streams):
        self._streams = streams

    def write(self, text):
        for stream in self._streams:
            stream.write(text)

    def flush(self):
        for stream in self._streams:
            stream.flush()


class TranscriptStream:
    """Adapts a Transcript to the write()/flush() stream interface, line by line."""

    def __init__(self, transcript, prefix=""):
        self._transcript = transcript
        self._prefix = prefix
        self._pending = ""

    def write(self, text):
        self._pending += text
        while "\n" in self._pending:
            line, self._pending = self._pending.split("\n", 1)
            self._transcript.say(self._prefix + line)

    def flush(self):
        pass


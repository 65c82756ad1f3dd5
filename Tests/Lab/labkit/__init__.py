"""labkit: boots Debian's kernel with virtual radios and runs the project's scenarios in it.

Host side: host.py (the `lab` command). Inside the VM: guest.py (sets up the
hardware of each scenario and runs its unittest file) and helper.py (the API
tests call as self.lab).
"""

from .helper import Lab, LabTestCase  # noqa: F401
from .processes import CommandResult, LabTimeout  # noqa: F401

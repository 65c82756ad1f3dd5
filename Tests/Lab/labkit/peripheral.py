"""lab-peripheral, the lab's accessory, as scenarios start it, and the LE links it makes."""


def serve(lab, *arguments, controller="hci1"):
    """`lab-peripheral serve --controller CONTROLLER ARGUMENTS`, once it advertises and listens;
    the test fails with its output if it exits first. Stopped at the scenario's end."""
    peripheral = lab.start_daemon([lab.binary("lab-peripheral"), "serve", "--controller", controller, *arguments],
                                  notify=False, name="lab-peripheral")

    def serving():
        if f"serving {controller}" in peripheral.output():
            return True
        if not peripheral.is_running():
            raise AssertionError(f"lab-peripheral exited:\n{peripheral.output()}")
        return False

    lab.wait_until(serving, timeout=30, what=f"lab-peripheral to advertise and listen on {controller}")
    return peripheral


def le_links(lab, controller):
    """The LE links `controller` has up, as `hcitool con` lists them."""
    listing = lab.run(["hcitool", "-i", controller, "con"], timeout=10).stdout
    return [line for line in listing.splitlines() if " LE " in line]

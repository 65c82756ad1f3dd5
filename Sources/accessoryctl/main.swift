import AccessoryctlCommand

// accessoryctl on its own, for `swift run` and the tests; the package installs
// accessoryctl as a link to the multi-call accessoryd instead (see its main).
AccessoryControl.runAsMain()

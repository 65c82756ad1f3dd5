import AccessoryctlCommand
import AccessorydCommand

// One executable for the daemon and the administrator's CLI, so that the
// package carries the statically linked Swift runtime once: it installs
// /usr/sbin/accessoryd and makes /usr/bin/accessoryctl a link to it. Like
// busybox and systemd's tools, the name it was started by chooses the command.
let invokedAs = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
if invokedAs == AccessoryControl.declaration.name {
    AccessoryControl.runAsMain()
}
AccessoryDaemonCommand.main()

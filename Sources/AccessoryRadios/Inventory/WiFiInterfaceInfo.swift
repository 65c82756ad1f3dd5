import AccessoryCore
import AccessoryPlatform
import CNetlink
import Glibc

/// A Wi-Fi interface the kernel knows, as NL80211_CMD_GET_INTERFACE describes it.
public struct WiFiInterfaceInfo: Hashable, Sendable {
    public var name: String
    public var index: UInt32
    /// The wiphy (radio) the interface belongs to.
    public var phy: UInt32
    public var address: HardwareAddress?
    /// nl80211_iftype: 2 is managed (station), 3 access point, 6 monitor.
    public var type: UInt32?

    /// Dumps every nl80211 interface. A kernel without cfg80211 (the nl80211
    /// family does not resolve) has none, which is not an error; nor has one
    /// that offers no generic netlink sockets at all (qemu-user, for one).
    public static func all() throws(SystemError) -> [WiFiInterfaceInfo] {
        guard let socket = nl_socket_alloc() else { throw SystemError(operation: "nl_socket_alloc", errno: ENOMEM) }
        defer { nl_socket_free(socket) }
        var result = genl_connect(socket)
        if result < 0 && [EPROTONOSUPPORT, EAFNOSUPPORT].contains(nlErrno(result)) { return [] }
        guard result >= 0 else { throw SystemError(operation: "genl_connect", errno: nlErrno(result)) }
        let family = genl_ctrl_resolve(socket, "nl80211")
        guard family >= 0 else { return [] }

        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        nl_socket_modify_cb(socket, NL_CB_VALID, NL_CB_CUSTOM, { message, context in
            let collector = Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue()
            if let message, let interface = WiFiInterfaceInfo(message: message) { collector.interfaces.append(interface) }
            return Int32(NL_OK.rawValue)
        }, context)

        guard let message = nlmsg_alloc() else { throw SystemError(operation: "nlmsg_alloc", errno: ENOMEM) }
        defer { nlmsg_free(message) }
        genlmsg_put(message, UInt32(NL_AUTO_PORT), UInt32(NL_AUTO_SEQ), family, 0, NLM_F_DUMP,
                    UInt8(NL80211_CMD_GET_INTERFACE.rawValue), 0)
        result = nl_send_auto(socket, message)
        guard result >= 0 else { throw SystemError(operation: "nl_send_auto(GET_INTERFACE)", errno: nlErrno(result)) }
        result = nl_recvmsgs_default(socket)
        guard result >= 0 else { throw SystemError(operation: "nl_recvmsgs(GET_INTERFACE)", errno: nlErrno(result)) }
        return collector.interfaces.sorted { $0.index < $1.index }
    }

    private final class Collector {
        var interfaces: [WiFiInterfaceInfo] = []
    }

    private init?(message: OpaquePointer) {
        let header = nlmsg_hdr(message)
        let generic = nlmsg_data(header).assumingMemoryBound(to: genlmsghdr.self)
        let maximum = Int(NL80211_ATTR_MAX.rawValue)
        var attributes = [UnsafeMutablePointer<nlattr>?](repeating: nil, count: maximum + 1)
        guard nla_parse(&attributes, Int32(maximum), genlmsg_attrdata(generic, 0), genlmsg_attrlen(generic, 0), nil) >= 0,
            let nameAttribute = attributes[Int(NL80211_ATTR_IFNAME.rawValue)],
            let indexAttribute = attributes[Int(NL80211_ATTR_IFINDEX.rawValue)]
        else { return nil }
        name = String(cString: nla_get_string(nameAttribute))
        index = nla_get_u32(indexAttribute)
        phy = attributes[Int(NL80211_ATTR_WIPHY.rawValue)].map { nla_get_u32($0) } ?? 0
        type = attributes[Int(NL80211_ATTR_IFTYPE.rawValue)].map { nla_get_u32($0) }
        address = attributes[Int(NL80211_ATTR_MAC.rawValue)].flatMap { attribute in
            guard nla_len(attribute) == 6 else { return nil }
            let bytes = UnsafeRawBufferPointer(start: nla_data(attribute), count: 6)
            return HardwareAddress(octets: bytes)
        }
    }
}

/// libnl returns its own error numbers; map the common ones back to errno.
func nlErrno(_ code: Int32) -> Int32 {
    switch -code {
    case NLE_NOMEM: ENOMEM
    case NLE_PERM: EPERM
    case NLE_BUSY: EBUSY
    case NLE_OBJ_NOTFOUND: ENOENT
    case NLE_AF_NOSUPPORT: EAFNOSUPPORT
    case NLE_PROTO_MISMATCH: EPROTONOSUPPORT
    default: EIO
    }
}

import AccessoryPlatform
import Glibc

/// The kernel's name for an interface index (if_indextoname), for output
/// meant for people; nil when the interface is gone.
public func networkInterfaceName(index: UInt32) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
    guard if_indextoname(index, &buffer) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

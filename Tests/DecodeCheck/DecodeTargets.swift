/// Every decoder this check runs, by the fuzz corpus directory it reads.
/// bus-arguments and client-decoding are not here: their decoders read
/// sd-bus messages, which would bring the daemon and libsystemd into this
/// binary; the arm64 replay and system tier exercise the bus instead.
let decodeTargets: [DecodeTarget] =
    bluetoothDecodeTargets + wifiDecodeTargets + storeDecodeTargets + configurationDecodeTargets

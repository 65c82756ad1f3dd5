/// The operator-relevant event classes, each with the stable journald
/// MESSAGE_ID that `journalctl MESSAGE_ID=…` and the catalog
/// (packaging/accessoryd.catalog, shown by `journalctl -x`) know it by.
///
/// The identifiers never change once released: monitoring keys on them.
/// Every case must have a catalog entry (a test checks).
public enum MessageID: String, CaseIterable, Sendable {
    case daemonStarted = "be95babff00c44ddb5433db998ac64c6"
    case daemonReady = "7830751b658e48829bf0a2c834dda812"
    case daemonStopping = "7ef9dab706e349b890c066d4123f1b9f"
    case configurationInvalid = "ebe7be13578446169426b8a76a988b69"
    case configurationReloaded = "a09cf926a21449fc91fa936e6e497435"
    case noRadios = "92b497be99bf402aaac3d8c8c952d119"
    case radiosProbed = "4bebbc5fbd5d4b0991b9735aab70a1c1"
    case busUnavailable = "fe722d41d20d4236b2559504af1c8053"
    /// The bus connection went away while running: accessoryd exits so systemd restarts it.
    case busLost = "7cf47dda999a425488152c03ba42535a"
    case grantStoreSetAside = "fa5e32dfe0804cbda414934015b4059f"
    case appsLoaded = "f1cbfacd222e477f9647dd3e84ea8fa3"
    case manifestInvalid = "594d6aa5732b4097af31d2b1183c4b3b"
    case wifiInterfaceAppeared = "7fa7fa1c453e44d59e150e3d34bb61f1"
    case wifiInterfaceRemoved = "43fcb43e06f249da90898ec17431557c"
    case wifiScansFailing = "7f662d14034b493bb59e068aa6c585ea"
    case wifiScansRecovered = "acf4dd492fb640b68a18e9710934ed6b"
    case wifiUnavailable = "b6daf368ae5848bebc2a71ec047fba6c"
    case bluetoothScanStarted = "a09a12b27c5741b99f8c4f62bc48d396"
    case bluetoothListening = "a6c5b1c3cc6145cd822260fca7b70c4c"
    case bluetoothRecovering = "50a2a603320244eabb3096027067be3e"
    case bluetoothScanWatchdog = "69a94fee9d35445b9e71ff075e3d3b70"
    case bluetoothControllerAdded = "2292ea65534043e4ae5e3b02e7c5237a"
    case bluetoothControllerRemoved = "406ab176ac554ec5b8eb6569620e96bc"
    case bluetoothUnavailable = "8d74f3ec8003437eb8347ba2010e2989"
    /// accessoryd powers a controller nobody else manages (bluetoothd is not running).
    case bluetoothControllerPowered = "4c2f2dccd5554dceaad937e92b78a419"
    // Sessions, setup requests and decisions: every decision names who made it (DECIDED_BY).
    case setupRequested = "f5dc5e889c2748f5a0868e422f30c2a3"
    case accessoryApproved = "3209c5fa32a041dd9176aeef15669876"
    case requestDenied = "9342c212d42647619b55025c26f248ce"
    case requestTimedOut = "217f1e95c7174f8f88b850b8fa57f568"
    case requestEnded = "2c62e391f400431c8c2355ba467beb9d"
    case accessoryRemoved = "6e35865fa440452a80a3030b3d64cab1"
    case accessoryRenamed = "6296f7a50469499eaa9650df64f86a35"
    case authorizationFinished = "d6436ee969cc4558bfbc67bb68f4155e"
    case authorizationUpdated = "6b05a7c3868d4405a4da85dd085ba6ee"
    case approvalWindowOpened = "f2a07bd6da49453b9ac0ac0a84e704e6"
    case approvalWindowClosed = "6bfc9492d34f45c094f3c3e1cf821195"
    case agentRegistered = "c175a550dc3a4f4baad2e83f93ea48c6"
    case agentUnregistered = "9fb40cea0e0f4f5a85e43cff8ef352de"
    /// Who may use Admin1: at start and on reload, after the group look-up.
    case administratorsResolved = "9b43995fef7c4c4db4bcd63b397a5dab"
    case accessoriesMigrated = "3f4aabc1046e4a2daaa62fdeac4642d1"
    /// An approved accessory whose descriptor asks for pairing is being paired before it is granted.
    case setupPairingStarted = "d4d0dd2e80f441a9842f2d96f92aa95f"
    /// A setup's pairing failed: nothing was granted, nothing stored (REASON names why).
    case setupPairingFailed = "d0e734072b0a4186b7bf879ee5e54c55"
    /// How setup pairs: through the kernel's management interface without bluetoothd, or BlueZ's D-Bus API beside it.
    case pairingMode = "172d8be9622849af841318a741935496"
    /// A migrated accessory's bond that bluetoothd already kept is recorded with its grant (no keys, no IRK).
    case bondAdopted = "00ac3049e49f4848a11bbe73bf26597f"

    case bluetoothChannelOpened = "500c80a1b9224eb5bb816f5068f5e44b"
    case hotspotJoinResult = "8af494bf5bf64b65a682f485c608fb14"
    case bluetoothChannelFailed = "a9a65f8559da4a3eadfebdee701cd83f"
    case hotspotJoinEnded = "9b41dba9b64e4ba5b86eb25e4886cb06"
    /// Which way a hotspot join goes: through NetworkManager or wpa_supplicant.
    case hotspotJoinRoute = "80685b3e47a147a6a0d12e6a7925be65"
    /// accessoryd started an app (through its `WakeSocket=`) because an accessory it observes appeared.
    case appWoken = "06e40a36ef874810b45ea785c1109dae"
    /// An app could not be woken: its wake socket refused, is gone, or did not check out; waking backs off.
    case appWakeFailed = "c3b0a3f1d9e24c7e8a51f06b2d7e4a90"

    /// The metadata key a log call sets to tag its entry with this class;
    /// the journald handler writes it as the MESSAGE_ID field.
    public static let metadataKey = "message_id"
}

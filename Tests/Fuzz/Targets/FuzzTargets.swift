/// Every fuzz target, by the name `make fuzz` and the corpus directories use.
let fuzzTargets: [FuzzTarget] = [
    hciEventTarget,
    advertisingReportsTarget,
    advertisingDataTarget,
    btsnoopTarget,
    attPDUTarget,
    netlinkTarget,
    nl80211ScanTarget,
    informationElementsTarget,
    wpaReplyTarget,
    wpaEventTarget,
    keyFileTarget,
    appManifestTarget,
    descriptorFileTarget,
    descriptorFieldsTarget,
    grantStoreTarget,
    busArgumentsTarget,
]

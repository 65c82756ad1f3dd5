/// What apps (and the administrator) do with accessories already granted:
/// finishing, failing or updating their authorization, removing, renaming.
extension AuthorizationCore {
    public mutating func finishAuthorization(
        _ id: AccessoryID, app: AppID, ssid: SSID?, bridgingIdentifier: String?
    ) throws(AccessorySetupError) -> AuthorizationDecision {
        var grant = try grants.owned(id, by: app)
        guard grant.state == .awaitingAuthorization else {
            throw AccessorySetupError(.invalidRequest, reason: .message("\(id) is not awaiting authorization"))
        }
        grant.state = .authorized
        if let ssid { grant.ssid = ssid }
        if let bridgingIdentifier { grant.bridgingIdentifier = bridgingIdentifier }
        var decision = save(grant)
        decision.log(.authorizationFinished, .notice, "\(app) finished authorizing \(grant.displayName)",
                     ["app": "\(app)", "accessory.id": "\(id)"])
        decision.notify(.app(app, .accessoryChanged(id)))
        return decision
    }

    public mutating func failAuthorization(_ id: AccessoryID, app: AppID) throws(AccessorySetupError) -> AuthorizationDecision {
        let grant = try grants.owned(id, by: app)
        var decision = remove(grant, decidedBy: Self.appDecider(app), why: "failed authorization")
        decision.notify(.app(app, .pickerSetupFailed(AccessorySetupError(.unknown, reason: .message("the app failed the setup of \(grant.displayName)")))))
        return decision
    }

    public mutating func updateAuthorization(
        _ id: AccessoryID, manifest: AppManifest, descriptor: DiscoveryDescriptor
    ) throws(AccessorySetupError) -> AuthorizationDecision {
        var grant = try grants.owned(id, by: manifest.app)
        do throws(DiscoveryDescriptorError) { try descriptor.validate() } catch { throw .invalidRequest(error) }
        try manifest.admit(descriptor)
        grant.descriptor = descriptor
        var decision = save(grant)
        decision.log(.authorizationUpdated, .info, "\(manifest.app) updated the descriptor of \(grant.displayName)",
                     ["app": "\(manifest.app)", "accessory.id": "\(id)"])
        decision.notify(.app(manifest.app, .accessoryChanged(id)))
        return decision
    }

    /// `app` nil: the administrator, who may remove any accessory.
    public mutating func remove(_ id: AccessoryID, app: AppID?, decidedBy decider: String) throws(AccessorySetupError) -> AuthorizationDecision {
        remove(try grants.owned(id, by: app), decidedBy: decider, why: "removed")
    }

    private mutating func remove(_ grant: Grant, decidedBy decider: String, why: String) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        decision.grantWrite = .remove(grant.accessory)
        grants.remove(grant.accessory)
        presence.forget(grant.accessory)
        decision.log(.accessoryRemoved, .notice, "\(grant.displayName) \(why) from \(grant.app) by \(decider)",
                     ["app": "\(grant.app)", "accessory.id": "\(grant.accessory)", "decided_by": "\(decider)"])
        decision.notify(.app(grant.app, .accessoryRemoved(grant.accessory)))
        if grant.bluetooth != nil { decision.pairing.append(.removeBond(grant.accessory, grant.bluetooth)) }
        return decision
    }

    /// `app` nil: the administrator. `renameSSID` renames a Wi-Fi
    /// accessory's hotspot too (the app reconfigures the accessory).
    public mutating func rename(
        _ id: AccessoryID, app: AppID?, to name: String, renameSSID: Bool, decidedBy decider: String
    ) throws(AccessorySetupError) -> AuthorizationDecision {
        var grant = try grants.owned(id, by: app)
        if let problem = GivenName.problem(name) {
            throw AccessorySetupError(.invalidRequest, reason: .message("name \(DisplayText.excerpt(name)) \(problem)"))
        }
        grant.displayName = name
        if renameSSID {
            guard grant.ssid != nil, let ssid = SSID(name) else {
                throw AccessorySetupError(.invalidRequest, reason: .message(
                    "name \(DisplayText.excerpt(name)) with the ssid option: it needs a Wi-Fi accessory and a name of 1 to 32 octets (this one has \(name.utf8.count))"))
            }
            grant.ssid = ssid
            grant.ssidRenamed = true
        }
        var decision = save(grant)
        decision.log(.accessoryRenamed, .notice, "\(id) renamed to \(name) by \(decider)",
                     ["app": "\(grant.app)", "accessory.id": "\(id)", "decided_by": "\(decider)",
                      "ssid_renamed": "\(renameSSID)"])
        decision.notify(.app(grant.app, .accessoryChanged(id)))
        return decision
    }

    private mutating func save(_ grant: Grant) -> AuthorizationDecision {
        var decision = AuthorizationDecision()
        decision.grantWrite = .save(grant)
        grants.save(grant)
        return decision
    }
}

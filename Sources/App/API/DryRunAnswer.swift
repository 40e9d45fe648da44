import Domain

/// A dry run's answer: what a change would do to the devices it reaches, with nothing changed.
struct DryRunAnswer: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "DryRun"
    let dryRun: Bool
    let impact: Impact

    enum CodingKeys: String, CodingKey, CaseIterable {
        case dryRun, impact
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        field == .dryRun ? JSONSchema(values: [.bool(true)]) : nil
    }

    init(impact: Impact) {
        dryRun = true
        self.impact = impact
    }

    struct Impact: Codable, Sendable, DocumentedFields {
        let devicesReached: Int
        let devicesChanged: Int
        let realDevicesReached: Int
        let mdmCommands: [MDMCommands]
        let locking: [LockChange]
        let unlocking: [LockChange]
        let switching: [LockChange]
        let sdkStarting: [SDKEffect]
        let sdkEnding: [SDKEffect]
        let groups: [Group]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case devicesReached, devicesChanged, realDevicesReached, mdmCommands, locking, unlocking, switching, sdkStarting, sdkEnding, groups
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .devicesReached: JSONSchema(description: "Devices in the groups the change reaches")
            case .devicesChanged: JSONSchema(description: "Of them, devices whose policy is different afterwards")
            case .realDevicesReached: JSONSchema(description: "Of the devices reached, those enrolled over MDM; the others are simulated or added by hand")
            case .mdmCommands:
                JSONSchema(description: "The commands the change queues for real devices, by profile or app: InstallApplication, InstallProfile, Settings "
                    + "(an app's managed configuration), RemoveProfile")
            case .locking: JSONSchema(description: "Devices Single App Mode will hold in an app")
            case .unlocking: JSONSchema(description: "Devices Single App Mode will let go")
            case .switching: JSONSchema(description: "Devices held in a different app")
            case .sdkStarting: JSONSchema(description: "What SDK apps start doing on a device (block, wipe), judged against what it last reported; effect not-known where it never reported what the rule compares")
            case .sdkEnding: JSONSchema(description: "What SDK apps stop doing on a device")
            case .groups: nil
            }
        }

        /// Nothing reached: the value the document's reader decodes with.
        static let none = Impact(devicesReached: 0, devicesChanged: 0, realDevicesReached: 0, mdmCommands: [], locking: [], unlocking: [], switching: [],
                                 sdkStarting: [], sdkEnding: [], groups: [])

        init(devicesReached: Int, devicesChanged: Int, realDevicesReached: Int, mdmCommands: [MDMCommands], locking: [LockChange],
             unlocking: [LockChange], switching: [LockChange], sdkStarting: [SDKEffect], sdkEnding: [SDKEffect], groups: [Group]) {
            self.devicesReached = devicesReached
            self.devicesChanged = devicesChanged
            self.realDevicesReached = realDevicesReached
            self.mdmCommands = mdmCommands
            self.locking = locking
            self.unlocking = unlocking
            self.switching = switching
            self.sdkStarting = sdkStarting
            self.sdkEnding = sdkEnding
            self.groups = groups
        }

        init(_ impact: PolicyImpact, appNames: [String: String]) {
            let effect = { (change: PolicyImpact.SDKChange) in SDKEffect(change, appNames: appNames) }
            self.init(devicesReached: impact.devicesReached, devicesChanged: impact.devicesChanged,
                      realDevicesReached: impact.realDevicesReached, mdmCommands: impact.mdmCommands.map(MDMCommands.init),
                      locking: impact.locking.map(LockChange.init), unlocking: impact.unlocking.map(LockChange.init),
                      switching: impact.switching.map(LockChange.init),
                      sdkStarting: impact.sdkStarting.map(effect), sdkEnding: impact.sdkEnding.map(effect),
                      groups: impact.groups.map(Group.init))
        }
    }

    struct MDMCommands: Codable, Sendable, NamedSchema, DocumentedFields {
        static let schemaName = "MDMCommands"
        let requestType: String
        let profile: String
        let devices: Int

        enum CodingKeys: String, CodingKey, CaseIterable {
            case requestType, profile, devices
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .requestType: JSONSchema(values: [.string("InstallApplication"), .string("InstallProfile"), .string("Settings"), .string("RemoveProfile")])
            case .profile: JSONSchema(description: "The console's profile the command installs or removes")
            case .devices: JSONSchema(description: "Real devices it is queued for")
            }
        }

        init(_ commands: PolicyImpact.MDMCommands) {
            requestType = commands.requestType.rawValue
            profile = commands.profile
            devices = commands.devices
        }
    }

    struct LockChange: Codable, Sendable, NamedSchema, DocumentedFields {
        static let schemaName = "LockChange"
        let device: String
        let group: String
        @Nullable var from: String?
        @Nullable var to: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case device, group, from, to
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .from: JSONSchema(description: "The app before; null: not locked")
            case .to: JSONSchema(description: "The app after; null: not locked")
            case .device, .group: nil
            }
        }

        init(_ change: PolicyImpact.LockChange) {
            device = change.device
            group = change.group
            from = change.before
            to = change.after
        }
    }

    struct SDKEffect: Codable, Sendable, NamedSchema, DocumentedFields {
        static let schemaName = "SDKEffect"
        let device: String
        let group: String
        let setting: String
        let effect: String
        let message: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case device, group, setting, effect, message
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .setting: JSONSchema(description: "The payload kind the effect comes from", values: ImpactPreview.sdkRuleKinds.map { .string($0.rawValue) })
            case .effect: JSONSchema(values: ["block", "wipe", "not-enforced", "not-known"].map(JSONValue.string))
            case .device, .group, .message: nil
            }
        }

        init(_ change: PolicyImpact.SDKChange, appNames: [String: String]) {
            device = change.device
            group = change.group
            setting = change.finding.setting.rawValue
            effect = change.finding.effect
            message = change.finding.sentence { appNames[$0] ?? $0 }
        }
    }

    struct Group: Codable, Sendable, DocumentedFields {
        let name: String
        let devices: Int
        let newConflict: [String]
        let resolvedConflict: [String]
        let changes: [Change]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, devices, newConflict, resolvedConflict, changes
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            field == .newConflict
                ? JSONSchema(description: "Single App Mode apps newly in conflict: the group's devices keep their current policy") : nil
        }

        struct Change: Codable, Sendable {
            let field: String
            @Nullable var before: String?
            @Nullable var after: String?
        }

        init(_ outcome: PolicyImpact.GroupOutcome) {
            name = outcome.name
            devices = outcome.deviceCount
            newConflict = outcome.newConflict
            resolvedConflict = outcome.resolvedConflict
            changes = outcome.changes.map { Change(field: $0.field, before: $0.before, after: $0.after) }
        }
    }
}

import Domain

/// What the document says of each field of an action beyond its type: the values the parser
/// takes, and which actions read it, by their declared names.
extension SimulatorActionBody: NamedSchema, DocumentedFields {
    static let schemaName = "SimulatorAction"

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .action: .names(of: SimulatorAction.Name.self)
        case .app: JSONSchema(description: "Bundle ID, for app actions (the app must be on screen, except \(readBy(.launchApp)))")
        case .mode: JSONSchema.names(of: LockRequestMode.self).refined(by: JSONSchema(description: readBy(.requestLock) + ": ASAM (default) or AAC"))
        case .confirm: JSONSchema(description: readBy(.requestLock) + ": the user's answer to the prompt (default true)")
        case .passcode: JSONSchema(description: readBy(.startGuidedAccess, .endGuidedAccess) + ": 4 to 6 digits")
        case .minutes: JSONSchema(description: readBy(.advanceClock), minimum: 1, maximum: 10080)
        case .latitude: JSONSchema(description: readBy(.setLocation) + " (with longitude; neither: no location fix)", minimum: -90, maximum: 90)
        case .longitude: JSONSchema(description: readBy(.setLocation), minimum: -180, maximum: 180)
        case .network: .names(of: SimulatedNetwork.self)
        case .thirdParty: JSONSchema(description: readBy(.setKeyboard))
        case .text: JSONSchema(description: readBy(.copy), maxLength: 1000)
        case .level: .names(of: LogLevel.self)
        case .message: JSONSchema(maxLength: 2000)
        case .count: JSONSchema(minimum: 1, maximum: SimulatorAction.maximumBurst)
        case .version: JSONSchema(description: readBy(.setOSVersion, .setAppVersion) + ": up to four whole numbers joined by dots", maxLength: 32)
        case .jailbroken: JSONSchema(description: readBy(.setJailbroken) + " (default true)")
        case .url: JSONSchema(description: readBy(.connect, .openLink) + ": an http:// or https:// address", maxLength: 2000)
        case .certificate:
            JSONSchema(description: readBy(.connect) + ": what the server presents — pinned-N (the device's Nth pinned certificate, see pinnedCertificates) or interceptor (default pinned-1)")
        case .address: JSONSchema(description: readBy(.openMailto) + ": an email address, with or without mailto:", maxLength: 2000)
        case .control: JSONSchema.names(of: HardwareControl.self).refined(by: JSONSchema(description: readBy(.useHardware)))
        case .feature: JSONSchema.names(of: AccessibilityFeature.self).refined(by: JSONSchema(description: readBy(.setAccessibility)))
        case .on: JSONSchema(description: readBy(.setAccessibility) + " (default true)")
        }
    }

    /// "startGuidedAccess / endGuidedAccess": the actions that read a field, by their declared names.
    static func readBy(_ actions: SimulatorAction.Name...) -> String {
        actions.map(\.rawValue).joined(separator: " / ")
    }
}

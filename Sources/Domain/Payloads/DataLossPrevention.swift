/// Data loss prevention for SDK apps. Each setting answers "is this allowed?": No restricts it.
public struct DataLossPrevention: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("dlp", displayName: "Data loss prevention",
                                         summary: "Controls copy and paste, keyboards, email and links in SDK apps.",
                                         combination: .mostRestrictive, settings: DataLossPrevention.self)

    public var allowCopyPasteOut = true
    public var allowCopyPasteInto = true
    public var allowThirdPartyKeyboards = true
    public var allowComposeEmail = true
    /// Yes: links open in the managed browser only.
    public var openLinksInManagedBrowser = false
    /// Yes: mailto links open in the managed mail app only.
    public var openMailtoInManagedMail = false

    public init(allowCopyPasteOut: Bool = true, allowCopyPasteInto: Bool = true, allowThirdPartyKeyboards: Bool = true,
                allowComposeEmail: Bool = true, openLinksInManagedBrowser: Bool = false, openMailtoInManagedMail: Bool = false) {
        self.allowCopyPasteOut = allowCopyPasteOut
        self.allowCopyPasteInto = allowCopyPasteInto
        self.allowThirdPartyKeyboards = allowThirdPartyKeyboards
        self.allowComposeEmail = allowComposeEmail
        self.openLinksInManagedBrowser = openLinksInManagedBrowser
        self.openMailtoInManagedMail = openMailtoInManagedMail
    }

    /// Where a new DLP payload starts: every choice the one that keeps managed data in managed
    /// apps (nothing copied or pasted across, the system keyboard, no email from the mail app,
    /// links and mailto only in the organisation's browser and mail app). Starting from
    /// "everything allowed" made a payload that,
    /// saved unchanged, restricted nothing.
    public static let restrictive = DataLossPrevention(allowCopyPasteOut: false, allowCopyPasteInto: false, allowThirdPartyKeyboards: false,
                                                       allowComposeEmail: false, openLinksInManagedBrowser: true, openMailtoInManagedMail: true)

    /// Whether the payload restricts nothing at all: saved like that, it adds a payload that
    /// changes nothing on the device.
    public var restrictsNothing: Bool { self == DataLossPrevention() }

    public struct Field: Sendable {
        public let option: BooleanOption<DataLossPrevention>
        public let explanation: String
        public var keyPath: WritableKeyPath<DataLossPrevention, Bool> { option.keyPath }
        public var sdkKey: String { option.appleKey }
        public var label: String { option.label }
    }

    public static let fields: [Field] = [
        .init(option: .init(\.allowCopyPasteOut, "CopyPasteOut", "Copy and paste out"),
              explanation: "No: text copied in an SDK app can be pasted only into other managed or SDK apps."),
        .init(option: .init(\.allowCopyPasteInto, "CopyPasteInto", "Copy and paste into"),
              explanation: "No: SDK apps accept pastes only from managed or SDK apps."),
        .init(option: .init(\.allowThirdPartyKeyboards, "ThirdPartyKeyboards", "Third-party keyboards"),
              explanation: "No: the system keyboard replaces third-party keyboards. The most restrictive of this and the app's own setting wins."),
        .init(option: .init(\.allowComposeEmail, "ComposeEmail", "Composing email"),
              explanation: "No: SDK apps cannot start an email in the mail app."),
        .init(option: .init(\.openLinksInManagedBrowser, "OpenLinksInManagedBrowser", "Open links in the managed browser"),
              explanation: "Yes: web links from SDK apps open only in the managed browser."),
        .init(option: .init(\.openMailtoInManagedMail, "OpenMailtoInManagedMail", "Open mailto links in the managed mail app"),
              explanation: "Yes: mailto links open only in the managed mail app."),
    ]

    /// Every combination of Yes and No is a valid policy.
    public func validate() -> ValidationErrors { ValidationErrors() }
}

extension PayloadKind {
    public static var dlp: PayloadKind { DataLossPrevention.kind }
}

extension DataLossPrevention: SDKPayloadSettings {
    /// Per setting, the most restrictive answer.
    public static func combine(_ found: [Sourced<DataLossPrevention>]) -> Combined<DataLossPrevention> {
        var strictest = DataLossPrevention()
        for dlp in found.map(\.value) {
            strictest.allowCopyPasteOut = strictest.allowCopyPasteOut && dlp.allowCopyPasteOut
            strictest.allowCopyPasteInto = strictest.allowCopyPasteInto && dlp.allowCopyPasteInto
            strictest.allowThirdPartyKeyboards = strictest.allowThirdPartyKeyboards && dlp.allowThirdPartyKeyboards
            strictest.allowComposeEmail = strictest.allowComposeEmail && dlp.allowComposeEmail
            strictest.openLinksInManagedBrowser = strictest.openLinksInManagedBrowser || dlp.openLinksInManagedBrowser
            strictest.openMailtoInManagedMail = strictest.openMailtoInManagedMail || dlp.openMailtoInManagedMail
        }
        return Combined(strictest, from: found)
    }

    public static let sdkKey = "DataLossPrevention"

    public var sdkEntry: PropertyList { .dictionary(Self.fields.map { ($0.sdkKey, .boolean(self[keyPath: $0.keyPath])) }) }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init()
        for field in Self.fields { self[keyPath: field.keyPath] = try entry.bool(field.sdkKey) }
    }
}

import Foundation

/// One uploaded log message, checked: what the device log API and the simulator store.
public struct LogLine: Equatable, Sendable {
    /// A message is at most 8 KB (UTF-8).
    public static let maximumMessageBytes = 8 * 1024
    /// Structured fields: a flat JSON object of at most this many keys.
    public static let maximumFields = 32
    public static let maximumFieldBytes = 1024

    public var app: String
    public var appVersion: String
    public var level: LogLevel
    public var kind: SimulatedLog.Kind
    public var loggedAt: Date
    public var message: String
    /// Field name to its value as the device sent it: text, a number or a boolean, kept as text.
    public var fields: [String: String]

    public init(app: String, appVersion: String = "", level: LogLevel, kind: SimulatedLog.Kind, loggedAt: Date,
                message: String, fields: [String: String] = [:]) {
        self.app = app
        // A crash report names its version in its header even when the upload does not.
        self.appVersion = appVersion.isEmpty && kind == .crash ? CrashSignature.reportedVersion(in: message) ?? "" : appVersion
        self.level = level
        self.kind = kind
        self.loggedAt = loggedAt
        self.message = message
        self.fields = fields
    }

    /// What the line costs against its app's share of the log store.
    public var byteCount: Int {
        message.utf8.count + fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }

    /// For a crash log, the line that names the crash (see `CrashSignature`).
    public var signature: String? { kind == .crash ? CrashSignature.of(message) : nil }

    /// Each problem under the field that has it: empty when the line may be stored.
    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if let problem = BundleID.problem(app) { errors["app"] = problem }
        if appVersion.utf8.count > 40 && appVersion.count > 40 { errors["appVersion"] = "An app version has at most 40 characters." }
        else if let problem = PlainText.problem(appVersion) { errors["appVersion"] = problem }
        if message.isEmpty { errors["message"] = "The message is empty." }
        else if message.utf8.count > Self.maximumMessageBytes { errors["message"] = "A message is at most 8 KB; this one is \(message.utf8.count) bytes." }
        // Tabs and line breaks are how crash reports are written; other control characters never are.
        else if let problem = PlainText.problem(message, lines: .multiple) { errors["message"] = problem }
        if fields.count > Self.maximumFields { errors["fields"] = "Send at most \(Self.maximumFields) fields." }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty || name.count > 64 || PlainText.problem(name) != nil {
                errors["fields"] = "Field names are 1 to 64 characters on one line."
            } else if value.utf8.count > Self.maximumFieldBytes || PlainText.problem(value, lines: .multiple) != nil {
                errors["fields.\(name)"] = "A field's value is at most 1 KB of text without control characters."
            }
        }
        return errors
    }
}

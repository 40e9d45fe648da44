import Foundation

/// An app's managed configuration keys as its AppConfig Community specfile describes them:
/// types, defaults, constraints and descriptions, as the community's specfile format defines
/// them. The console keeps one per
/// app and builds the managed app configuration form from it.
public struct AppConfigSpec: Codable, Equatable, Sendable {
    /// A key the file describes that the console cannot take, and why.
    public struct Skipped: Codable, Equatable, Sendable {
        public let keyName: String
        public let line: Int
        public let reason: String
    }

    public var bundleID: String
    /// The specfile's own revision number.
    public var version: Int
    /// Each key with its default as the value, in the file's order.
    public var keys: [ConfigKey]
    public var skipped: [Skipped]

    public init(bundleID: String, version: Int, keys: [ConfigKey], skipped: [Skipped] = []) {
        self.bundleID = bundleID
        self.version = version
        self.keys = keys
        self.skipped = skipped
    }
}

/// Why an imported file (a specfile, a .mobileconfig) was refused, and where when the file has
/// lines: nothing of a refused file is kept.
public struct ImportProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of refusal it is, which the API answers as a stable code of its own.
    public enum Code: CaseIterable, Sendable {
        /// The file's content breaks a rule (the reason says which, and the line).
        case invalidFile
        /// No configuration profile at all: a picture, a text, another property list.
        case notAProfile
        case emptyFile
        case fileTooLarge
        /// A specfile that is not UTF-8 text.
        case notText
        /// A specfile describing another app than the one it was uploaded for.
        case wrongApp
        case binaryPlist
        case invalidSignature
        /// A new version was asked for a profile that does not exist.
        case profileNotFound
    }

    public let line: Int?
    public let reason: String
    public let code: Code

    public init(line: Int?, _ reason: String, code: Code = .invalidFile) {
        self.line = line
        self.reason = reason
        self.code = code
    }

    public var description: String { line.map { "Line \($0): \(reason)" } ?? reason }

    /// A file that is no configuration profile at all (a picture, a text, another property
    /// list): said as that, not as a broken signature or a broken profile.
    public static func notAProfile(_ detail: String, line: Int? = nil) -> ImportProblem {
        ImportProblem(line: line, "This file is not a profile: \(detail)", code: .notAProfile)
    }
}

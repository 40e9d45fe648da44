/// Where a command for a device stands. A command waits — queued, sent, or put off by the
/// device with NotNow — until the device answers it or a person or time ends it; every other
/// status is final.
public enum CommandStatus: String, Codable, Sendable, CaseIterable {
    case queued
    /// Handed to the device, which has not answered yet.
    case sent
    case acknowledged
    case error
    /// The device could not read the command at all.
    case formatError
    /// The device cannot run it now (locked, busy, on cellular); it is sent again later.
    case notNow
    case cancelled
    /// Nobody ran it within `DeviceCommand.lifetime`.
    case expired

    /// The statuses of a command still to be run, in the order every query names them (the
    /// stores' partial indexes are declared with the same list).
    public static let waiting: [CommandStatus] = [.queued, .sent, .notNow]

    /// What a device may report about a command it was sent.
    public static let reports: [CommandStatus] = [.acknowledged, .error, .formatError, .notNow]

    public var isWaiting: Bool { Self.waiting.contains(self) }

    public var displayName: String {
        switch self {
        case .queued: "Queued"
        case .sent: "Sent"
        case .acknowledged: "Acknowledged"
        case .error: "Error"
        case .formatError: "Not understood"
        case .notNow: "Not now"
        case .cancelled: "Cancelled"
        case .expired: "Expired"
        }
    }

    /// The word Apple's protocol uses: a report's `Status`, and the status a command envelope
    /// carries.
    public var protocolName: String {
        switch self {
        case .queued: "Queued"
        case .sent: "Sent"
        case .acknowledged: "Acknowledged"
        case .error: "Error"
        case .formatError: "CommandFormatError"
        case .notNow: "NotNow"
        case .cancelled: "Cancelled"
        case .expired: "Expired"
        }
    }

    /// The report a device's `Status` names, or nil for a word no device reports.
    public init?(report word: String) {
        guard let status = Self.reports.first(where: { $0.protocolName == word }) else { return nil }
        self = status
    }
}

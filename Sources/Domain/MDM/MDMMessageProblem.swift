/// Why a device's MDM message was not taken: the key that is missing or of the wrong type,
/// in words for the log and the 400 answer.
public struct MDMMessageProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key at fault, or nil when the body as a whole is wrong.
    public let key: String?
    public let reason: String

    public init(key: String?, _ reason: String) {
        self.key = key
        self.reason = reason
    }

    public var description: String { key.map { "\($0): \(reason)" } ?? reason }
}

/// Reading the values of one message dictionary, refusing a wrong type by its key's name.
struct MDMFields {
    let entries: PropertyList

    init(_ message: PropertyList) throws(MDMMessageProblem) {
        guard case .dictionary = message else { throw MDMMessageProblem(key: nil, "the message is not a dictionary") }
        entries = message
    }

    func string(_ key: String) throws(MDMMessageProblem) -> String? {
        switch entries[key] {
        case nil: return nil
        case .string(let text)?: return text
        default: throw MDMMessageProblem(key: key, "must be a string")
        }
    }

    func requiredString(_ key: String) throws(MDMMessageProblem) -> String {
        guard let text = try string(key), !text.isEmpty else { throw MDMMessageProblem(key: key, "is required") }
        return text
    }

    func data(_ key: String) throws(MDMMessageProblem) -> [UInt8]? {
        switch entries[key] {
        case nil: return nil
        case .data(let bytes)?: return bytes
        default: throw MDMMessageProblem(key: key, "must be data")
        }
    }

    func boolean(_ key: String) throws(MDMMessageProblem) -> Bool? {
        switch entries[key] {
        case nil: return nil
        case .boolean(let flag)?: return flag
        default: throw MDMMessageProblem(key: key, "must be true or false")
        }
    }

    func integer(_ key: String) throws(MDMMessageProblem) -> Int? {
        switch entries[key] {
        case nil: return nil
        case .integer(let number)?: return number
        default: throw MDMMessageProblem(key: key, "must be an integer")
        }
    }

    /// Who the message is from: the device (`UDID`) or a user enrollment (`EnrollmentID`).
    func enrollment() throws(MDMMessageProblem) -> MDMEnrollmentID {
        if let udid = try string("UDID"), !udid.isEmpty { return .device(udid: udid) }
        if let id = try string("EnrollmentID"), !id.isEmpty { return .user(enrollmentID: id) }
        throw MDMMessageProblem(key: "UDID", "is required (or EnrollmentID)")
    }
}

/// Whom an MDM message names: a device enrolled as a device (its UDID), or a user enrollment.
public enum MDMEnrollmentID: Equatable, Hashable, Sendable {
    case device(udid: String)
    case user(enrollmentID: String)
}

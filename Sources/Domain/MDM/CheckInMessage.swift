/// What a device says on the check-in endpoint (`MessageType`): it enrolls (Authenticate),
/// gives its push token (TokenUpdate) or leaves (CheckOut). The other messages Apple defines
/// are named, so each gets a deliberate answer rather than an error.
public enum CheckInMessage: Equatable, Sendable {
    case authenticate(Authenticate)
    case tokenUpdate(TokenUpdate)
    case checkOut(topic: String, enrollment: MDMEnrollmentID)
    /// A message the console knows but does not serve yet (user channel, declarative
    /// management, tokens, bootstrap tokens), by its `MessageType`.
    case unsupported(String)

    public struct Authenticate: Equatable, Sendable {
        public let topic: String
        public let enrollment: MDMEnrollmentID
        public let serialNumber: String?
        public let productName: String?
        public let osVersion: String?
        public let buildVersion: String?
        public let imei: String?
        public let meid: String?
    }

    public struct TokenUpdate: Equatable, Sendable {
        public let topic: String
        public let enrollment: MDMEnrollmentID
        public let token: [UInt8]
        public let pushMagic: String
        /// Needed to clear the passcode; a TokenUpdate without it keeps the one kept before.
        public let unlockToken: [UInt8]?
        public let awaitingConfiguration: Bool
    }

    static let unsupportedTypes: Set<String> = [
        "UserAuthenticate", "DeclarativeManagement", "GetToken", "SetBootstrapToken", "GetBootstrapToken",
    ]

    /// Reads a check-in body already parsed as a property list.
    public static func read(_ body: PropertyList) throws(MDMMessageProblem) -> CheckInMessage {
        let fields = try MDMFields(body)
        let type = try fields.requiredString("MessageType")
        switch type {
        case "Authenticate":
            return .authenticate(Authenticate(
                topic: try fields.requiredString("Topic"), enrollment: try fields.enrollment(),
                serialNumber: try fields.string("SerialNumber"), productName: try fields.string("ProductName"),
                osVersion: try fields.string("OSVersion"), buildVersion: try fields.string("BuildVersion"),
                imei: try fields.string("IMEI"), meid: try fields.string("MEID")))
        case "TokenUpdate":
            guard let token = try fields.data("Token"), !token.isEmpty else { throw MDMMessageProblem(key: "Token", "is required") }
            return .tokenUpdate(TokenUpdate(
                topic: try fields.requiredString("Topic"), enrollment: try fields.enrollment(), token: token,
                pushMagic: try fields.requiredString("PushMagic"), unlockToken: try fields.data("UnlockToken"),
                awaitingConfiguration: try fields.boolean("AwaitingConfiguration") ?? false))
        case "CheckOut":
            return .checkOut(topic: try fields.requiredString("Topic"), enrollment: try fields.enrollment())
        case let other where unsupportedTypes.contains(other):
            return .unsupported(other)
        default:
            throw MDMMessageProblem(key: "MessageType", "“\(type.prefix(60))” is not a check-in message")
        }
    }
}

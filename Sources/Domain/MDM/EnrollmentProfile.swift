/// The profile a device installs to enroll: an identity payload that asks the console's SCEP
/// endpoint for a certificate with a one-time challenge, and the MDM payload that names the
/// console's endpoints, the push topic, and that every message is signed with that identity.
public struct EnrollmentProfile: Sendable {
    public let organisation: String
    public let groupName: String
    /// The console's address as devices reach it, without a trailing slash.
    public let baseURL: String
    public let topic: String
    public let challenge: String
    /// The certificate's common name: chosen by the console, not by the device.
    public let subjectCommonName: String
    /// Fresh for each link, so installing a second link's profile replaces nothing by accident.
    /// What every enrollment profile's identifier starts with (the link's id follows).
    public static let identifierPrefix = "com.payloadconsole.enrollment."
    public let identifier: String
    public let profileUUID: String
    public let mdmPayloadUUID: String
    public let scepPayloadUUID: String

    /// Every right the protocol grants (query, install and remove profiles, lock and erase,
    /// device information, network information, provisioning profiles, apps, restrictions,
    /// security queries, settings, app management): 8191 is their sum.
    public static let allAccessRights = 8191

    public init(organisation: String, groupName: String, baseURL: String, topic: String, challenge: String, subjectCommonName: String,
                identifier: String, profileUUID: String, mdmPayloadUUID: String, scepPayloadUUID: String) {
        self.organisation = organisation
        self.groupName = groupName
        self.baseURL = baseURL
        self.topic = topic
        self.challenge = challenge
        self.subjectCommonName = subjectCommonName
        self.identifier = identifier
        self.profileUUID = profileUUID
        self.mdmPayloadUUID = mdmPayloadUUID
        self.scepPayloadUUID = scepPayloadUUID
    }

    public static let checkInPath = "/mdm/checkin"
    public static let commandPath = "/mdm/command"
    public static let scepPath = "/mdm/scep"

    public func propertyList() -> PropertyList {
        .dictionary([
            ("PayloadContent", .array([scepPayload, mdmPayload])),
            ("PayloadDisplayName", .string("\(organisation): device management")),
            ("PayloadDescription", .string("Lets \(organisation) manage this device in the group “\(groupName)”: its policy, apps and configuration, and commands from its helpdesk.")),
            ("PayloadIdentifier", .string(identifier)),
            ("PayloadOrganization", .string(organisation)),
            ("PayloadRemovalDisallowed", .boolean(false)),
            ("PayloadType", .string("Configuration")),
            ("PayloadUUID", .string(profileUUID)),
            ("PayloadVersion", .integer(1)),
        ])
    }

    private var scepPayload: PropertyList {
        .dictionary([
            ("PayloadContent", .dictionary([
                ("URL", .string(baseURL + Self.scepPath)),
                ("Name", .string("Payload Console")),
                ("Subject", .array([.array([.array([.string("CN"), .string(subjectCommonName)])])])),
                ("Challenge", .string(challenge)),
                ("Keysize", .integer(2048)),
                ("Key Type", .string("RSA")),
                // Signing (1) and encryption (4): the identity signs messages and opens SCEP's answer.
                ("Key Usage", .integer(5)),
            ])),
            ("PayloadDisplayName", .string("Device identity")),
            ("PayloadIdentifier", .string(identifier + ".scep")),
            ("PayloadType", .string("com.apple.security.scep")),
            ("PayloadUUID", .string(scepPayloadUUID)),
            ("PayloadVersion", .integer(1)),
        ])
    }

    private var mdmPayload: PropertyList {
        .dictionary([
            ("AccessRights", .integer(Self.allAccessRights)),
            ("CheckInURL", .string(baseURL + Self.checkInPath)),
            ("CheckOutWhenRemoved", .boolean(true)),
            ("IdentityCertificateUUID", .string(scepPayloadUUID)),
            ("ServerURL", .string(baseURL + Self.commandPath)),
            ("SignMessage", .boolean(true)),
            ("Topic", .string(topic)),
            ("PayloadDisplayName", .string("Device management")),
            ("PayloadIdentifier", .string(identifier + ".mdm")),
            ("PayloadType", .string("com.apple.mdm")),
            ("PayloadUUID", .string(mdmPayloadUUID)),
            ("PayloadVersion", .integer(1)),
        ])
    }
}

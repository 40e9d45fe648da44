import Domain
import Foundation

/// `POST /api/v1/device/beacon`: the status beacon an SDK app on a real device sends. The
/// device's name, group and user are the console's own records; the app says the rest.
struct BeaconBody: APIRequestBody {
    let bundleID: String
    let appVersion: String
    let osVersion: String
    let enrollment: StatusBeacon.Enrollment
    let compliance: ComplianceState
    let complianceReason: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case bundleID, appVersion, osVersion, enrollment, compliance, complianceReason
    }

    static let maximumReasonLength = 500

    /// Every field checked, the first problem reported with its field.
    func validated() throws -> BeaconBody {
        var errors = ValidationErrors()
        errors["bundleID"] = BundleID.problem(bundleID)
        if AppleVersion(appVersion) == nil { errors["appVersion"] = "Send the app's version, such as 5.2." }
        if AppleVersion(osVersion) == nil { errors["osVersion"] = "Send the iOS version, such as 17.4." }
        if let reason = complianceReason {
            if let problem = PlainText.problem(reason, lines: .multiple) { errors["complianceReason"] = problem }
            else if PlainText.length(reason) > Self.maximumReasonLength { errors["complianceReason"] = "Keep the reason to \(Self.maximumReasonLength) characters." }
        }
        try APIRequest.refuse(errors)
        return self
    }

    func beacon(deviceName: String, group: String?, user: String) -> StatusBeacon {
        StatusBeacon(deviceName: deviceName, group: group, bundleID: bundleID, appVersion: appVersion, osVersion: osVersion, user: user,
                     enrollment: enrollment, deviceCompliance: compliance, complianceReason: compliance == .compliant ? nil : complianceReason)
    }
}

extension BeaconBody: DocumentedFields {
    static func note(on field: CodingKeys) -> JSONSchema? {
        typealias D = OpenAPIDocument
        return switch field {
        case .bundleID: JSONSchema(types: [.string], pattern: "^\(D.bundleIDPattern)$", maxLength: BundleID.maximumLength)
        case .appVersion, .osVersion: D.appleVersion
        case .enrollment, .compliance: nil
        case .complianceReason: JSONSchema(types: [.string], pattern: "^[^\(D.controlsBesideLineBreaks)]*$", maxLength: maximumReasonLength)
        }
    }
}

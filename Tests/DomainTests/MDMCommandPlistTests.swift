import Domain
import Foundation
import Testing

/// Every command the console sends over MDM carries the keys Apple's schema requires, of the
/// types it gives, and reads back from the XML the device is sent.
@Suite struct MDMCommandPlistTests {
    enum Kind { case string, data, boolean, integer, array, dictionary }

    /// Required keys of each command's payload, restated from Apple's schema.
    static let required: [DeviceCommand.RequestType: [(String, Kind)]] = [
        .installProfile: [("Payload", .data)], .removeProfile: [("Identifier", .string)],
        .deviceInformation: [("Queries", .array)], .clearPasscode: [("UnlockToken", .data)],
        .managedApplicationFeedback: [("Identifiers", .array)], .managedApplicationConfiguration: [("Identifiers", .array)],
        .settings: [("Settings", .array)], .removeApplication: [("Identifier", .string)],
    ]
    /// Optional keys the console sends, with their types.
    static let optional: [String: Kind] = ["DeleteFeedback": .boolean, "Message": .string, "PhoneNumber": .string, "Footnote": .string,
                                           "iTunesStoreID": .integer, "ManagementFlags": .integer, "Configuration": .dictionary]

    static var materials: MDMCommandPlist.Materials {
        var materials = MDMCommandPlist.Materials()
        materials.profile = Array("<plist/>".utf8)
        materials.profileIdentifier = "com.example.lobby"
        materials.unlockToken = [1, 2, 3]
        materials.appConfigurations = [("com.example.checkin", .dictionary([("kiosk", .boolean(true))]))]
        materials.managedApps = ["com.example.checkin"]
        materials.application = AppDelivery(method: .appStore, storeID: 915_056_765, removeWithManagement: true).installKeys(bundleID: "com.example.maps")
        materials.applicationConfiguration = .dictionary([("kiosk", .boolean(true))])
        return materials
    }

    func kind(_ value: PropertyList) -> Kind? {
        switch value {
        case .string: .string
        case .data: .data
        case .boolean: .boolean
        case .integer: .integer
        case .array: .array
        case .dictionary: .dictionary
        default: nil
        }
    }

    @Test(arguments: DeviceCommand.RequestType.allCases.filter { $0.reach != .sdk })
    func eachMDMCommandCarriesItsRequiredKeys(type: DeviceCommand.RequestType) throws {
        let command = DeviceCommand(requestType: type, .init(apps: ["com.example.checkin"], message: "Return to the front desk",
                                                             phoneNumber: "+44 20 7946 0000", footnote: "Thanks"))
        let sent = try MDMCommandPlist.envelope(uuid: "C-1", command: command, materials: Self.materials)
        let read = try PropertyListReader.read(sent.xmlDocument())
        #expect(read == sent, "the XML the device gets reads back as written")
        #expect(read["CommandUUID"] == .string("C-1"))
        let body = try #require(read["Command"])
        #expect(body["RequestType"] == .string(type.rawValue))
        guard case .dictionary(let entries) = body else { Issue.record("Command is not a dictionary"); return }
        for (key, expected) in Self.required[type] ?? [] {
            let value = try #require(body[key], "\(type.rawValue) lacks \(key)")
            #expect(kind(value) == expected, "\(type.rawValue).\(key)")
        }
        for (key, value) in entries where key != "RequestType" && Self.required[type]?.contains(where: { $0.0 == key }) != true {
            #expect(Self.optional[key] == kind(value), "\(type.rawValue) sends \(key), which it should not, or of the wrong type")
        }
    }

    @Test func sdkCommandsAndMissingMaterialsAreRefusedInWords() {
        func refusal(_ type: DeviceCommand.RequestType, _ parameters: DeviceCommand.Parameters = .init(),
                     _ materials: MDMCommandPlist.Materials = .init()) -> MDMCommandPlist.Refusal? {
            do {
                _ = try MDMCommandPlist.envelope(uuid: "C", command: DeviceCommand(requestType: type, parameters), materials: materials)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(.requestLogs) == .notAnMDMCommand(.requestLogs))
        #expect(refusal(.clearGuidedAccessPasscode) == .notAnMDMCommand(.clearGuidedAccessPasscode))
        #expect(refusal(.clearPasscode)?.description.contains("unlock token") == true)
        #expect(refusal(.enableLostMode, .init(footnote: "only a footnote"))?.description.contains("message or a phone number") == true)
        #expect(refusal(.settings)?.description.contains("configuration") == true)
        #expect(refusal(.managedApplicationFeedback)?.description.contains("No managed app") == true)
        #expect(refusal(.installProfile) != nil && refusal(.removeProfile) != nil)
        #expect(refusal(.installApplication)?.description.contains("no app to install") == true)
        #expect(refusal(.removeApplication)?.description.contains("no app to remove") == true)
        #expect(refusal(.managedApplicationFeedback, .init(apps: ["com.example.notes"])) == nil, "named apps need no catalog")
    }
}

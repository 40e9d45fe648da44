import Domain
import Foundation

/// `POST /api/v1/simulator/{udid}/actions`: the action and the fields it needs, typed, read
/// by the same `SimulatorActionParser` as the page's forms.
struct SimulatorActionBody: APIRequestBody {
    let action: String
    let app: String?
    let mode: String?
    let confirm: Bool?
    let passcode: String?
    let minutes: Int?
    let latitude: Double?
    let longitude: Double?
    let network: String?
    let thirdParty: Bool?
    let text: String?
    let level: String?
    let message: String?
    let count: Int?
    let version: String?
    let jailbroken: Bool?
    let url: String?
    let certificate: String?
    let address: String?
    let control: String?
    let feature: String?
    let on: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case action, app, mode, confirm, passcode, minutes, latitude, longitude, network, thirdParty, text, level, message, count, version, jailbroken
        case url, certificate, address, control, feature, on
    }

    /// A field as the parser reads it from a form: text, or nil when not sent.
    func field(_ name: String) -> String? {
        guard let key = CodingKeys(rawValue: name) else { return nil }
        switch key {
        case .action: return action
        case .app: return app
        case .mode: return mode
        case .confirm: return confirm.map { $0 ? "true" : "false" }
        case .passcode: return passcode
        case .minutes: return minutes.map(String.init)
        case .latitude: return latitude.map { String($0) }
        case .longitude: return longitude.map { String($0) }
        case .network: return network
        case .thirdParty: return thirdParty.map { $0 ? "true" : "false" }
        case .text: return text
        case .level: return level
        case .message: return message
        case .count: return count.map(String.init)
        case .version: return version
        case .jailbroken: return jailbroken.map { $0 ? "true" : "false" }
        case .url: return url
        case .certificate: return certificate
        case .address: return address
        case .control: return control
        case .feature: return feature
        case .on: return on.map { $0 ? "true" : "false" }
        }
    }
}

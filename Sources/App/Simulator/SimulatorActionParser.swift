import Domain
import Foundation

/// Reads a simulator action from named fields — a page's form or the API's JSON — so both
/// speak the same vocabulary: `{"action": "requestLock", "app": "com.example.exam"}`.
enum SimulatorActionParser {
    struct Problem: Error, Equatable {
        let field: String
        let message: String
    }

    static func parse(_ sent: (String) -> String?) throws(Problem) -> SimulatorAction {
        func field(_ name: String) throws(Problem) -> String? {
            guard let value = sent(name) else { return nil }
            if let problem = PlainText.problem(value, lines: .multiple) { throw Problem(field: name, message: "\(name): \(problem)") }
            return value
        }
        func text(_ name: String) throws(Problem) -> String? {
            try field(name).map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func required(_ name: String) throws(Problem) -> String {
            guard let value = try text(name) else { throw Problem(field: name, message: "\(name) is required for this action.") }
            return value
        }
        func app() throws(Problem) -> String {
            let bundleID = try required("app")
            if let problem = BundleID.problem(bundleID) { throw Problem(field: "app", message: "app: \(problem)") }
            return bundleID
        }
        func bool(_ name: String, default fallback: Bool) throws(Problem) -> Bool {
            guard let value = try text(name)?.lowercased() else { return fallback }
            switch value {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw Problem(field: name, message: "\(name) must be true or false.")
            }
        }
        func number(_ name: String, in range: ClosedRange<Double>) throws(Problem) -> Double {
            guard let value = DecimalNumber.parse(try required(name)), range.contains(value) else {
                throw Problem(field: name, message: "\(name) must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)).")
            }
            return value
        }

        func version() throws(Problem) -> String {
            let given = try required("version")
            guard let version = AppleVersion(given) else {
                throw Problem(field: "version", message: "version must read as a version such as 17.4: up to four whole numbers joined by dots.")
            }
            return version.description
        }

        func address(_ name: String, example: String) throws(Problem) -> String {
            let given = try text(name) ?? ""
            guard !given.isEmpty else { throw Problem(field: name, message: "Type an address such as \(example).") }
            guard PlainText.length(given) <= 2_000, !given.contains(where: \.isWhitespace) else {
                throw Problem(field: name, message: "An address has no spaces and at most 2,000 characters.")
            }
            return given
        }

        guard let given = try text("action") else {
            throw Problem(field: "action", message: "Say which action, such as \(SimulatorAction.Name.launchApp.rawValue).")
        }
        guard let name = SimulatorAction.Name(rawValue: given) else {
            let names = SimulatorAction.Name.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem(field: "action", message: "Unknown action \(given.clipped(to: 40)). Use one of: \(names).")
        }
        switch name {
        case .launchApp: return .launchApp(try app())
        case .home: return .home
        case .requestLock:
            let modeText = try text("mode") ?? LockRequestMode.autonomous.rawValue
            guard let mode = LockRequestMode(rawValue: modeText) else {
                throw Problem(field: "mode", message: "mode must be autonomous (ASAM) or assessment (AAC).")
            }
            return .requestLock(app: try app(), mode: mode, confirm: try bool("confirm", default: true))
        case .requestUnlock: return .requestUnlock(app: try app())
        case .startGuidedAccess: return .startGuidedAccess(passcode: try required("passcode"))
        case .endGuidedAccess: return .endGuidedAccess(passcode: try required("passcode"))
        case .restart: return .restart
        case .advanceClock: return .advanceClock(minutes: Int(try number("minutes", in: 1...10_080)))
        case .setLocation:
            let (latitude, longitude) = (try text("latitude"), try text("longitude"))
            if latitude == nil && longitude == nil { return .setLocation(nil) }
            return .setLocation(GeoPoint(latitude: try number("latitude", in: -90...90), longitude: try number("longitude", in: -180...180)))
        case .setNetwork:
            guard let network = SimulatedNetwork(rawValue: try required("network")) else {
                throw Problem(field: "network", message: "network must be wifi, cellular or offline.")
            }
            return .setNetwork(network)
        case .setKeyboard: return .setThirdPartyKeyboard(try bool("thirdParty", default: true))
        case .copy:
            let copied = try field("text") ?? ""
            guard !copied.isEmpty else { throw Problem(field: "text", message: "Type the text to copy.") }
            guard PlainText.length(copied) <= 1_000 else { throw Problem(field: "text", message: "Copy at most 1,000 characters.") }
            return .copy(app: try app(), text: copied)
        case .paste: return .paste(app: try app())
        case .showKeyboard: return .showKeyboard(app: try app())
        case .signIn: return .signIn(app: try app())
        case .emitLog:
            guard let level = LogLevel(rawValue: try required("level")) else {
                throw Problem(field: "level", message: "level must be error, warning, information or debug.")
            }
            let message = try text("message") ?? "Test message"
            guard PlainText.length(message) <= 2_000 else { throw Problem(field: "message", message: "Keep a message to 2,000 characters.") }
            let count = try text("count") == nil ? 1 : Int(try number("count", in: 1...Double(SimulatorAction.maximumBurst)))
            return .emitLog(app: try app(), level: level, message: message, count: count)
        case .crash: return .crash(app: try app())
        case .setOSVersion: return .setOSVersion(try version())
        case .setAppVersion: return .setAppVersion(app: try app(), version: try version())
        case .setJailbroken: return .setJailbroken(try bool("jailbroken", default: true))
        case .sendBeacon: return .sendBeacon(app: try app())
        case .connect:
            let certificate: ServerCertificate
            switch try text("certificate") ?? "pinned-1" {
            case "interceptor": certificate = .interceptor
            case let chosen where chosen.hasPrefix("pinned-"):
                guard let position = Int(chosen.dropFirst("pinned-".count)), (1...CertificatePinning.maximumCertificates).contains(position) else { fallthrough }
                certificate = .pinned(position - 1)
            default:
                throw Problem(field: "certificate", message: "certificate must be pinned-1 to pinned-\(CertificatePinning.maximumCertificates), or interceptor.")
            }
            return .connect(app: try app(), url: try address("url", example: "https://api.example.com"), certificate: certificate)
        case .composeEmail: return .composeEmail(app: try app())
        case .openLink: return .openLink(app: try app(), url: try address("url", example: "https://intranet.example.com"))
        case .openMailto:
            let address = try address("address", example: "help@example.com")
            return .openMailto(app: try app(), address: address.lowercased().hasPrefix("mailto:") ? String(address.dropFirst(7)) : address)
        case .useHardware:
            guard let control = HardwareControl(rawValue: try required("control")) else {
                throw Problem(field: "control", message: "control must be one of: \(HardwareControl.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return .useHardware(control)
        case .setAccessibility:
            guard let feature = AccessibilityFeature(rawValue: try required("feature")) else {
                throw Problem(field: "feature", message: "feature must be one of: \(AccessibilityFeature.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return .setAccessibility(feature, on: try bool("on", default: true))
        }
    }
}

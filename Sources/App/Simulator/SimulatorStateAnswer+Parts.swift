import Domain
import Foundation

// The parts of a simulated device's state with rules of their own: what the screen shows,
// the hardware, and what each managed app made of its configuration.

extension SimulatorStateAnswer {
    struct Screen: Codable, Equatable, Sendable, DocumentedFields {
        enum Kind: String, Codable, CaseIterable, DocumentedEnum {
            case home, app, signIn, blocked
        }

        let kind: Kind
        let app: String?
        let reason: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case kind, app, reason
        }

        init(kind: Kind, app: String? = nil, reason: String? = nil) {
            self.kind = kind
            self.app = app
            self.reason = reason
        }

        init(_ screen: SimulatorScreen) {
            switch screen {
            case .home: self.init(kind: .home)
            case .app(let bundleID): self.init(kind: .app, app: bundleID)
            case .signIn(let bundleID): self.init(kind: .signIn, app: bundleID)
            case .blocked(let bundleID, let why): self.init(kind: .blocked, app: bundleID, reason: why)
            }
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .kind: nil
            case .app: JSONSchema(description: "The app on screen; absent at home")
            case .reason: JSONSchema(description: "Why the SDK blocks the app; only when kind is blocked")
            }
        }
    }

    struct Hardware: Codable, Sendable, DocumentedFields {
        let orientation: HardwareState.Orientation
        let volume: Int
        let silent: Bool
        let screenOff: Bool
        let disabledBySingleAppMode: [String]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case orientation, volume, silent, screenOff, disabledBySingleAppMode
        }

        init(_ state: SimulatedDevice) {
            let hardware = state.hardwareState
            orientation = hardware.orientation
            volume = hardware.volume
            silent = hardware.isSilent
            screenOff = hardware.isScreenOff
            disabledBySingleAppMode = state.disabledHardware
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .volume: JSONSchema(minimum: 0, maximum: HardwareState.maximumVolume)
            case .disabledBySingleAppMode: JSONSchema(description: "What the Single App Mode options switch off while it holds the device")
            default: nil
            }
        }
    }
}

/// One managed app's configuration as it reads it: each key's value, and whether the console
/// sent it or the app fell back to its default.
struct ReceivedConfigurationAnswer: Codable, Sendable {
    let app: String
    let keys: [Key]

    init(app: String, _ received: ReceivedConfiguration) {
        self.app = app
        keys = received.entries.map { Key(name: $0.name, value: $0.value, source: $0.usedDefault ? .appDefault : .console, note: $0.note) }
    }

    struct Key: Codable, Sendable, DocumentedFields {
        enum Source: String, Codable, CaseIterable, DocumentedEnum {
            case console, appDefault
        }

        let name: String
        let value: String
        let source: Source
        @Nullable var note: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, value, source, note
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .name: nil
            case .value: JSONSchema(description: "As the app reads it")
            case .source: JSONSchema(description: "console: the value the policy sent; appDefault: missing or invalid, so the app fell back to its default")
            case .note: JSONSchema(description: "Why the app used its default")
            }
        }
    }
}

extension SimulatedNetwork: DocumentedEnum {}
extension AccessibilityFeature: DocumentedEnum {}
extension HardwareState.Orientation: DocumentedEnum {}
extension SimulatorEvent.Result: DocumentedEnum {}

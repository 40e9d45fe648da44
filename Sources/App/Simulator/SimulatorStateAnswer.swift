import Domain
import Foundation
import Storage

/// A simulated device's state as `GET /api/v1/simulator/{udid}` and an action's answer show it.
struct SimulatorStateAnswer: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "SimulatorState"
    let revision: Int
    let supervised: Bool
    let clock: Date
    let network: SimulatedNetwork
    @Nullable var location: Location?
    @Nullable var foregroundApp: String?
    let screen: Screen
    @Nullable var lock: Lock?
    let turnedOff: [String]
    let apps: [App]
    @Nullable var pasteboard: Pasteboard?
    let pendingLogs: Int
    let policyConflict: [String]
    @Nullable var osVersion: String?
    let jailbroken: Bool
    let compliance: Compliance
    @Nullable var customSettings: String?
    let hardware: Hardware
    let accessibility: [AccessibilityFeature]
    let managedConfiguration: [ReceivedConfigurationAnswer]
    let pinnedCertificates: [PinnedCertificate]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case revision, supervised, clock, network, location, foregroundApp, screen, lock, turnedOff, apps, pasteboard, pendingLogs
        case policyConflict, osVersion, jailbroken, compliance, customSettings, hardware, accessibility, managedConfiguration, pinnedCertificates
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .turnedOff: JSONSchema(description: "What an assessment (AAC) turns off while its app holds the lock; empty otherwise")
        case .customSettings: JSONSchema(description: "The custom settings SDK apps receive")
        case .accessibility: JSONSchema(description: "Accessibility features on: the user's, and those Single App Mode turns on")
        case .managedConfiguration:
            JSONSchema(description: "What each managed app received under com.apple.configuration.managed and made of it (user-installed apps receive nothing)")
        default: nil
        }
    }

    init(_ stored: SimulatorStateRecord) {
        let state = stored.state
        revision = stored.revision
        supervised = state.isSupervised
        clock = state.clock
        network = state.network
        location = state.location.map { Location(latitude: $0.latitude, longitude: $0.longitude) }
        foregroundApp = state.foregroundApp
        screen = Screen(state.screen)
        lock = state.lock.map { Lock(mode: $0.code, app: $0.app) }
        turnedOff = state.turnedOff
        apps = state.apps.map { App(bundleID: $0.bundleID, name: $0.name, managed: $0.isManaged, sdk: $0.isSDKBuilt, version: state.version(of: $0.bundleID), role: $0.role) }
        pasteboard = state.pasteboard.map { Pasteboard(text: $0.text, sourceApp: $0.sourceApp) }
        pendingLogs = state.pendingLogs.count
        policyConflict = state.policyConflict
        osVersion = state.osVersion
        jailbroken = state.isCompromised
        compliance = Compliance(state: state.complianceState, reason: state.complianceReason, wipedAt: state.wipedAt)
        customSettings = state.policy[CustomSettings.self]?.text
        hardware = Hardware(state)
        accessibility = state.accessibilityOn
        managedConfiguration = state.apps.compactMap { app in
            state.deliveredConfiguration(for: app.bundleID).map { ReceivedConfigurationAnswer(app: app.bundleID, ReceivedConfiguration($0)) }
        }
        pinnedCertificates = (state.policy[CertificatePinning.self]?.certificates ?? []).enumerated().map { index, certificate in
            PinnedCertificate(certificate: "pinned-\(index + 1)", subject: certificate.subject, publicKeySHA256: certificate.publicKeySHA256,
                              notAfter: certificate.notAfter)
        }
    }

    struct Location: Codable, Equatable, Sendable {
        let latitude: Double
        let longitude: Double
    }

    /// Which app holds the device, and in which of the four ways (`DeviceLock.code`).
    struct Lock: Codable, Equatable, Sendable, DocumentedFields {
        let mode: String
        let app: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case mode, app
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            field == .mode ? .oneOfStrings(DeviceListFilter.LockState.allCases.filter { $0 != .unlocked }.map(\.rawValue)) : nil
        }
    }

    struct App: Codable, Sendable {
        let bundleID: String
        let name: String
        let managed: Bool
        let sdk: Bool
        let version: String
        @Nullable var role: AppRole?
    }

    struct Pasteboard: Codable, Sendable {
        let text: String
        let sourceApp: String
    }

    struct Compliance: Codable, Equatable, Sendable {
        let state: ComplianceState
        @Nullable var reason: String?
        @Nullable var wipedAt: Date?
    }

    struct PinnedCertificate: Codable, Sendable, DocumentedFields {
        let certificate: String
        let subject: String
        let publicKeySHA256: String
        let notAfter: Date

        enum CodingKeys: String, CodingKey, CaseIterable {
            case certificate, subject, publicKeySHA256, notAfter
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            field == .certificate ? JSONSchema(description: "The value connect's certificate takes") : nil
        }
    }
}

import Domain
import Foundation
import Hummingbird
import Storage

/// Every simulator control as JSON, for scripts and tests: `POST /api/v1/simulator/{udid}/actions`
/// with `{"action": "requestLock", "app": "com.example.exam"}` answers the resulting state and
/// the timeline event. The page uses the same actions.
struct SimulatorAPIController {
    let services: Services

    func register(on routes: SecuredRoutes) {
        routes.get("/api/v1/simulator/{udid}", role: .viewer) { _, context in
            let id = try await device(context)
            return try .jsonObject(Self.stateJSON(try await services.simulator.sync(id).state))
        }
        routes.get("/api/v1/simulator/{udid}/events", role: .viewer, use: events)
        routes.post("/api/v1/simulator/{udid}/actions", role: .helpdesk) { request, context in
            let id = try await device(context)
            let body = try await APIRequest.decode(SimulatorActionBody.self, from: request)
            let action: SimulatorAction
            do throws(SimulatorActionParser.Problem) {
                action = try SimulatorActionParser.parse(body.field)
            } catch {
                throw APIError(status: .unprocessableContent, code: .invalidAction, message: error.message, field: error.field)
            }
            let (outcome, stored) = try await services.simulator.perform(action, on: id)
            return try .jsonObject(["event": Self.eventJSON(outcome.event), "state": Self.stateJSON(stored)])
        }
    }

    func device(_ context: SignedInContext) async throws -> RecordID<DeviceRecord> {
        let udid = try context.parameters.require("udid").asciiUppercased
        guard let id = try await services.simulatorReader.device(udid: udid)?.id else {
            throw APIError(status: .notFound, code: .notFound, message: "No device has UDID \(udid.clipped(to: 60)).")
        }
        return id
    }

    static func eventJSON(_ event: SimulatorEvent) -> [String: Any] {
        ["at": event.at.formatted(.iso8601), "action": event.action, "rule": event.rule,
         "result": event.result.rawValue, "message": event.message]
    }

    static func stateJSON(_ stored: SimulatorStateRecord) -> [String: Any] {
        let state = stored.state
        let hardware = state.hardwareState
        var screen: [String: Any]
        switch state.screen {
        case .home: screen = ["kind": "home"]
        case .app(let app): screen = ["kind": "app", "app": app]
        case .signIn(let app): screen = ["kind": "signIn", "app": app]
        case .blocked(let app, let reason): screen = ["kind": "blocked", "app": app, "reason": reason]
        }
        var lock: Any = NSNull()
        if let held = state.lock {
            let mode = switch held {
            case .singleAppMode: "singleAppMode"
            case .autonomous: "autonomous"
            case .assessment: "assessment"
            case .guidedAccess: "guidedAccess"
            }
            lock = ["mode": mode, "app": held.app]
        }
        return [
            "revision": stored.revision,
            "supervised": state.isSupervised,
            "clock": state.clock.formatted(.iso8601),
            "network": state.network.rawValue,
            "location": state.location.map { ["latitude": $0.latitude, "longitude": $0.longitude] as Any } ?? NSNull(),
            "foregroundApp": state.foregroundApp as Any? ?? NSNull(),
            "screen": screen,
            "lock": lock,
            "turnedOff": state.turnedOff,
            "apps": state.apps.map { ["bundleID": $0.bundleID, "name": $0.name, "managed": $0.isManaged, "sdk": $0.isSDKBuilt,
                                      "version": state.version(of: $0.bundleID), "role": $0.role?.rawValue as Any? ?? NSNull()] },
            "pasteboard": state.pasteboard.map { ["text": $0.text, "sourceApp": $0.sourceApp] as Any } ?? NSNull(),
            "pendingLogs": state.pendingLogs.count,
            "policyConflict": state.policyConflict,
            "osVersion": state.osVersion as Any? ?? NSNull(),
            "jailbroken": state.isCompromised,
            "compliance": ["state": state.complianceState.rawValue,
                           "reason": state.complianceReason as Any? ?? NSNull(),
                           "wipedAt": state.wipedAt.map { $0.formatted(.iso8601) as Any } ?? NSNull()] as [String: Any],
            "customSettings": state.policy[CustomSettings.self]?.text as Any? ?? NSNull(),
            "hardware": ["orientation": hardware.orientation.rawValue, "volume": hardware.volume, "silent": hardware.isSilent,
                         "screenOff": hardware.isScreenOff, "disabledBySingleAppMode": state.disabledHardware] as [String: Any],
            "accessibility": state.accessibilityOn.map(\.rawValue),
            "managedConfiguration": state.apps.compactMap { app -> [String: Any]? in
                guard let received = state.deliveredConfiguration(for: app.bundleID).map(ReceivedConfiguration.init) else { return nil }
                return ["app": app.bundleID, "keys": received.entries.map { entry in
                    ["name": entry.name, "value": entry.value, "source": entry.usedDefault ? "appDefault" : "console",
                     "note": entry.note as Any? ?? NSNull()] as [String: Any]
                }]
            },
            "pinnedCertificates": (state.policy[CertificatePinning.self]?.certificates ?? []).enumerated().map { index, certificate in
                ["certificate": "pinned-\(index + 1)", "subject": certificate.subject, "publicKeySHA256": certificate.publicKeySHA256,
                 "notAfter": certificate.notAfter.formatted(.iso8601)]
            },
        ]
    }
}

import Domain
import Foundation
import Storage

/// One line of a simulated device's timeline.
struct SimulatorEventAnswer: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "SimulatorEvent"
    /// The stream's events carry their id, to resume after; an action's answer has none.
    let id: RecordID<SimulatorEventRecord>?
    let at: Date
    let action: String
    let rule: String
    let result: SimulatorEvent.Result
    let message: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, at, action, rule, result, message
    }

    init(_ event: SimulatorEvent) {
        id = nil
        at = event.at
        action = event.action
        rule = event.rule
        result = event.result
        message = event.message
    }

    init(_ record: SimulatorEventRecord) {
        id = record.id
        at = record.deviceTime
        action = record.action
        rule = record.rule
        result = record.result
        message = record.message
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .id: JSONSchema(description: "On the event stream, the event's id (Last-Event-ID resumes after it); absent in an action's answer")
        case .at: JSONSchema(description: "The simulated device's clock")
        default: nil
        }
    }
}

/// `POST /api/v1/simulator/{udid}/actions`: what the action did, and the device afterwards.
struct SimulatorActionAnswer: APIAnswer, DocumentedFields {
    let event: SimulatorEventAnswer
    let state: SimulatorStateAnswer

    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, state
    }

    static func note(on field: CodingKeys) -> JSONSchema? { nil }
    static var schemaDescription: String? { "The timeline event and the state afterwards" }
}

/// What the event stream's `status` event carries: what a person watching the device sees
/// change — compliance, lock, screen and the app in front.
struct SimulatorStatusAnswer: Codable, Equatable, Sendable {
    let revision: Int
    let compliance: SimulatorStateAnswer.Compliance
    @Nullable var lock: SimulatorStateAnswer.Lock?
    let screen: SimulatorStateAnswer.Screen
    @Nullable var foregroundApp: String?

    init(_ state: SimulatorStateAnswer) {
        revision = state.revision
        compliance = state.compliance
        lock = state.lock
        screen = state.screen
        foregroundApp = state.foregroundApp
    }
}

/// What `GET /api/v1/simulator/{udid}/events` sends.
enum SimulatorStreamEvent: StreamedEvent {
    case event(SimulatorEventAnswer)
    case status(SimulatorStatusAnswer)
    case gone

    static let streamDescription = """
        `event: event` for each timeline event (`id:` is its id, data is a SimulatorEvent with its id); \
        `event: status` with the device's compliance, lock, screen and foreground app whenever one of them changes (and once \
        at the start); `event: gone` when the device is removed. Reconnect with Last-Event-ID to continue where the stream ended.
        """

    var name: String {
        switch self {
        case .event: "event"
        case .status: "status"
        case .gone: "gone"
        }
    }

    var id: String? {
        if case .event(let event) = self { event.id?.description } else { nil }
    }

    func data() throws -> String {
        switch self {
        case .event(let event): try Self.line(event)
        case .status(let status): try Self.line(status)
        case .gone: try Self.line(["message": "The device was removed."])
        }
    }
}

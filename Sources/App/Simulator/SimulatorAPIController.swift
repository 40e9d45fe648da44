import Domain
import Foundation
import Hummingbird
import Storage

/// Every simulator control as JSON, for scripts and tests: `POST /api/v1/simulator/{udid}/actions`
/// with `{"action": "requestLock", "app": "com.example.exam"}` answers the resulting state and
/// the timeline event. The page uses the same actions.
struct SimulatorAPIController {
    let simulatorReader: SimulatorReader
    let simulator: SimulatorService
    let liveChanges: LiveChanges

    static let state = Endpoint<String, NoBody, SimulatorStateAnswer>(
        .get, "/api/v1/simulator/{udid}", role: .viewer, "A simulated device's state (after applying policy changes and queued commands)")
    static let act = Endpoint<String, SimulatorActionBody, SimulatorActionAnswer>(
        .post, "/api/v1/simulator/{udid}/actions", role: .helpdesk, "Do something on a simulated device, as the page's controls do",
        otherAnswers: [422: "invalid_action or validation_failed, with field"])
    static let events = Endpoint<String, NoBody, EventStream<SimulatorStreamEvent>>(
        .get, "/api/v1/simulator/{udid}/events", role: .viewer, "A simulated device's timeline and status changes as they happen (Server-Sent Events)",
        parameters: ["event stream"], otherAnswers: [400: "invalid_parameter, with field"])

    func register(on routes: SecuredRoutes) {
        routes.handle(Self.state) { udid, _, _ in
            let id = try await device(udid: udid)
            return Reply(SimulatorStateAnswer(try await simulator.sync(id).state))
        }
        routes.handle(Self.events, events)
        routes.handle(Self.act) { udid, body, _, _ in
            let id = try await device(udid: udid)
            let action: SimulatorAction
            do throws(SimulatorActionParser.Problem) {
                action = try SimulatorActionParser.parse(body.field)
            } catch {
                throw APIError(status: .unprocessableContent, code: .invalidAction, message: error.message, field: error.field)
            }
            let (outcome, stored) = try await simulator.perform(action, on: id)
            return Reply(SimulatorActionAnswer(event: SimulatorEventAnswer(outcome.event), state: SimulatorStateAnswer(stored)))
        }
    }

    /// The simulated device a path's UDID names, in any case.
    func device(udid given: String) async throws -> RecordID<DeviceRecord> {
        let udid = given.asciiUppercased
        guard let id = try await simulatorReader.device(udid: udid)?.id else {
            throw APIError(status: .notFound, code: .notFound, message: "No device has UDID \(udid.clipped(to: 60)).")
        }
        return id
    }
}

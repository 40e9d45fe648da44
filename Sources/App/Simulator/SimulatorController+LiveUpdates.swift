import Domain
import Foundation
import Hummingbird
import Storage

extension SimulatorController {
    /// Server-Sent Events: `changed` with the new revision whenever the device changes. The
    /// stream reads a one-row fingerprint when `LiveChanges` says a commit may concern the
    /// device — one of this console's, or on PostgreSQL another console's — and syncs the device
    /// when anything it depends on moved (policy generation, queued commands, the device record),
    /// so changes made anywhere reach the page within a second.
    @Sendable func events(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let since = request.uri.formParameters["since"].flatMap { Int(String($0)) } ?? -1
        let simulator = self.simulator
        let reader = simulatorReader
        let changes = liveChanges
        _ = try await catalogReader.device(id)
        return try EventStream<PageStreamEvent> { events in
            var lastRevision = since
            var lastInputs = ""
            // Streams end after a minute, or at once when the console shuts down; the
            // browser reconnects by itself, and a shutdown never waits for open pages.
            var wait = LiveStreamWait(changes: changes, device: id, lasting: 60)
            while wait.isOpen {
                let mark = wait.mark
                guard let probe = try await reader.probe(id) else {
                    try await events.send(.gone)
                    break
                }
                if probe.inputs != lastInputs {
                    lastInputs = probe.inputs
                    if try await simulator.sync(id).changed { continue }
                }
                if probe.revision != lastRevision {
                    lastRevision = probe.revision
                    try await events.send(.changed(mark: String(probe.revision)))
                    wait.sent()
                }
                try await wait.untilChanged(after: mark, events: &events)
            }
        }.response(status: .ok, headers: [:])
    }
}

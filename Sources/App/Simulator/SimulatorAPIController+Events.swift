import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Storage

extension SimulatorAPIController {
    /// `GET /api/v1/simulator/{udid}/events`: Server-Sent Events for scripts and dashboards.
    /// Each timeline event is an `event` with its record id as the SSE id, so a client that
    /// reconnects with `Last-Event-ID` (or `?after=`) misses nothing; a `status` event carries
    /// the device's compliance, lock and screen whenever one of them changes — the SDK's
    /// status-changed notification, observable from outside. The stream ends after `timeout`
    /// seconds (default and most 300) or when the console shuts down.
    static let longestStream = 300
    static let eventsPerRead = 100

    /// Where the stream starts and how long it lasts.
    static var streamParameters: [OpenAPI.Parameter] { [
        .query("after", JSONSchema(types: [.integer], minimum: 0),
               "Send the events after this id first (default: only new events); the Last-Event-ID header does the same"),
        .query("timeout", JSONSchema(types: [.integer], minimum: 1, maximum: longestStream), "Seconds before the stream ends (default \(longestStream))"),
    ] }

    @Sendable func events(udid: String, request: Request, context: SignedInContext) async throws -> Reply<EventStream<SimulatorStreamEvent>> {
        let id = try await device(udid: udid)
        let query = request.uri.formParameters
        let resumeFrom = request.headers[values: HTTPField.Name("Last-Event-ID")!].first ?? query["after"].map(String.init)
        let after: Int64?
        if let resumeFrom {
            guard let number = Int64(resumeFrom), number >= 0 else {
                throw APIError(status: .badRequest, code: .invalidParameter, message: "after (or Last-Event-ID) is an event id: a whole number from 0.", field: "after")
            }
            after = number
        } else {
            after = nil
        }
        var timeout = Self.longestStream
        if let given = query["timeout"] {
            guard let seconds = Int(given), (1...Self.longestStream).contains(seconds) else {
                throw APIError(status: .badRequest, code: .invalidParameter, message: "timeout is a number of seconds from 1 to \(Self.longestStream).", field: "timeout")
            }
            timeout = seconds
        }
        let reader = simulatorReader
        let simulator = self.simulator
        let changes = liveChanges
        let startID = if let after { after } else { try await reader.latestEventID(of: id) }
        let seconds = timeout
        return Reply(EventStream { events in
            var lastID = startID
            var lastRevision = -1
            var lastInputs = ""
            var lastStatus: SimulatorStatusAnswer?
            var wait = LiveStreamWait(changes: changes, device: id, lasting: seconds)
            while wait.isOpen {
                let mark = wait.mark
                guard let probe = try await reader.probe(id) else {
                    try await events.send(.gone)
                    break
                }
                var changed = false
                if probe.inputs != lastInputs {
                    lastInputs = probe.inputs
                    changed = try await simulator.sync(id).changed
                }
                if changed || probe.revision != lastRevision {
                    lastRevision = probe.revision
                    var batch: [SimulatorEventRecord]
                    repeat {
                        batch = try await reader.events(of: id, after: lastID, limit: Self.eventsPerRead)
                        for event in batch {
                            lastID = event.id.rawValue
                            try await events.send(.event(SimulatorEventAnswer(event)))
                            wait.sent()
                        }
                    } while batch.count == Self.eventsPerRead
                    // Read, not synced: the sync above already ran for these inputs.
                    let status = SimulatorStatusAnswer(SimulatorStateAnswer(try await simulator.state(of: id)))
                    if status != lastStatus {
                        lastStatus = status
                        try await events.send(.status(status))
                        wait.sent()
                    }
                    // A sync moved the revision past the one probed: look again at once.
                    if changed { continue }
                }
                try await wait.untilChanged(after: mark, events: &events)
            }
        })
    }
}

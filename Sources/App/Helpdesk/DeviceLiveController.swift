import Domain
import Foundation
import Hummingbird
import Storage

/// What the open device page asks every few seconds, and at once when its event stream says
/// the device changed: lines that arrived after the newest one it shows (as rows to put on
/// top) and where its commands stand — so requested logs appear and a command's progress shows
/// without a reload.
struct DeviceLiveController {
    let catalogReader: CatalogReader
    let helpdeskReader: HelpdeskReader
    let checkIns: CheckInCache
    let database: Database
    let liveChanges: LiveChanges
    let now: @Sendable () -> Date
    /// A page takes at most this many of the newest lines at a time: it shows the device's
    /// latest lines, so an upload of thousands brings its newest fifty, not a backlog.
    static let batch = 50

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Devices.live, use: live)
        routes.on(Site.Devices.events, use: events)
    }

    /// Server-Sent Events for the open page: `changed`, carrying the tag of the policy the device
    /// gets, whenever a commit may concern the device — its record, its commands, any policy —
    /// whether made through this console or, on PostgreSQL, another on the same database. The
    /// page then asks `live` at once rather than at its next look, and says so when the policy
    /// changed. Ends after `timeout` seconds (default and most 60) or when the console stops;
    /// the browser reconnects by itself.
    @Sendable func events(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        var seconds = 60
        if let given = request.uri.queryParameters["timeout"] {
            guard let number = Int(String(given)), (1...60).contains(number) else { throw HTTPError(.badRequest) }
            seconds = number
        }
        _ = try await catalogReader.device(id)
        let lasting = seconds
        let reader = helpdeskReader
        let (checkIns, database, changes) = (self.checkIns, self.database, liveChanges)
        return try EventStream<PageStreamEvent> { events in
            var wait = LiveStreamWait(changes: changes, device: id, lasting: lasting)
            var told: UInt64?
            while wait.isOpen {
                let mark = wait.mark
                guard let key = try await reader.policyKey(of: id) else {
                    try await events.send(.gone)
                    break
                }
                if told != mark {
                    let tag = try await checkIns.document(group: key.groupID, generation: key.generation, database: database).tag
                    try await events.send(.changed(mark: tag))
                    wait.sent()
                    told = mark
                }
                try await wait.untilChanged(after: mark, events: &events)
            }
        }.response(status: .ok, headers: [:])
    }

    @Sendable func live(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let after = try APIQuery.id("after", of: request) as RecordID<DeviceLogRecord>?
        let found = try await helpdeskReader.live(id, after: after, limit: Self.batch)
        let names = found.apps.namesByBundleID
        let now = self.now()
        // As on the page: a line that says where the device was gets what its geofence makes of it.
        let placed = found.lines.contains { GeoPoint.firstMentioned(in: $0.line.message) != nil }
        let fence = placed ? try await catalogReader.geofences(of: [id])[id] : nil
        let update = DeviceLiveUpdate(
            rows: found.lines.map { LogRowHTML.row($0, appName: names[$0.line.app], selectable: false, showDevice: false, geofence: fence) }.joined(),
            added: found.lines.count,
            commands: found.commands.map { DeviceLiveUpdate.Command(DeviceCommandsView.row($0, role: context.user.role, now: now)) },
            newest: (found.lines.first?.line.id ?? after).map { $0.description } ?? "0")
        return try .json(update, headers: [.cacheControl: "no-store"])
    }
}

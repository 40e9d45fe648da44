import Domain
import Foundation
import Hummingbird
import Storage

/// What the open device page asks every few seconds: lines that arrived after the newest one
/// it shows (as rows to put on top) and where its commands stand — so requested logs appear
/// and a command's progress shows without a reload.
struct DeviceLiveController {
    let services: Services
    /// A page takes at most this many of the newest lines at a time: it shows the device's
    /// latest lines, so an upload of thousands brings its newest fifty, not a backlog.
    static let batch = 50

    func register(on routes: SecuredRoutes) {
        routes.get("/devices/{id}/live", role: .helpdesk, use: live)
    }

    @Sendable func live(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let after = try APIQuery.id("after", of: request) as RecordID<DeviceLogRecord>?
        let found = try await services.helpdeskReader.live(id, after: after, limit: Self.batch)
        let names = found.apps.namesByBundleID
        let now = services.now
        var body: [String: Any] = [
            "rows": found.lines.map { LogRowHTML.row($0, appName: names[$0.line.app], selectable: false, showDevice: false) }.joined(),
            "added": found.lines.count,
            "commands": found.commands.map { command -> [String: Any] in
                let row = DeviceCommandsView.row(command, now: now)
                return ["uuid": row.uuid, "name": row.name, "status": row.status, "statusName": row.statusName,
                        "queued": row.queued, "queuedBy": row.queuedBy, "answer": row.result]
            },
        ]
        body["newest"] = (found.lines.first?.line.id ?? after).map { $0.description } ?? "0"
        var response = try Response.jsonObject(body)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

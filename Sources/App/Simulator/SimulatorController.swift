import Domain
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import Storage

/// The simulator: enrolling a simulated device, its page, the controls, and the live channel
/// that tells an open page when the device changed.
struct SimulatorController {
    let services: Services
    var simulator: SimulatorService { services.simulator }

    func register(on routes: SecuredRoutes) {
        routes.get("/simulator/new", .role(.admin)) { request, context in
            try enrollmentForm(DeviceForm(), request: request, context: context)
        }
        routes.post("/simulator", .role(.admin), use: enroll)
        routes.get("/simulator/{id}", .role(.viewer), use: show)
        routes.post("/simulator/{id}/actions", .role(.helpdesk), use: act)
        routes.get("/simulator/{id}/events", .role(.viewer), use: events)
        routes.get("/simulator/{id}/revision", .role(.viewer)) { _, context in
            let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
            try simulator.sync(id)
            return try .json(["revision": try simulator.state(of: id).revision])
        }
        routes.post("/devices/{id}/commands", .role(.helpdesk), use: queueCommand)
    }

    // MARK: enrollment

    private func enrollmentForm(_ form: DeviceForm, request: Request, context: AppRequestContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let (groups, apps) = try services.database.read { connection in
            (try connection.fetch(DeviceGroupRecord.query()), try connection.fetch(AppRecord.query().order(by: "name")))
        }
        let view = form.view(groups: groups, apps: apps, enrolling: true)
        return services.renderer.page("devices/form", title: view.title, model: view, request: request, context: context, status: status)
    }

    struct EnrolledView {
        let id: String
        let name: String
        let udid: String
        let token: String
        let checkInExample: String
    }

    @Sendable func enroll(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        var submitted = DeviceForm(context.form)
        submitted.serialNumber = Self.randomSerial()
        submitted.udid = Self.randomUDID()
        if let draft = submitted.validDraft() {
            do {
                let now = services.now
                let (token, hash) = DeviceTokens.mint()
                let device = try services.database.write { connection in
                    if let group = submitted.groupID { _ = try connection.require(DeviceGroupRecord.self, id: group) }
                    let device = try connection.insert(DeviceRecord(
                        id: nil, name: draft.name, model: draft.model ?? .iPad, osVersion: draft.osVersion,
                        serialNumber: draft.serialNumber, udid: draft.udid, isSupervised: draft.isSupervised, owner: draft.owner,
                        groupID: submitted.groupID, installedApps: draft.installedApps, enrolledAt: now, lastCheckInAt: nil, tokenHash: hash))
                    try connection.audit("device.enrolled", subject: device.name, by: actor, after: DeviceForm.summary(device) + ", simulated", at: now)
                    return device
                }
                try simulator.sync(device.id!)
                let view = EnrolledView(
                    id: device.id!.description, name: device.name, udid: device.udid, token: token,
                    checkInExample: "curl -H 'Authorization: Bearer \(token)' \(Self.origin(of: request))/api/v1/device/policy")
                return services.renderer.page("simulator/enrolled", title: "Enrolled \(device.name)", model: view, request: request, context: context)
            } catch let error as StorageError {
                submitted.absorb(error)
            }
        }
        return try enrollmentForm(submitted, request: request, context: context, status: .unprocessableContent)
    }

    static func randomSerial() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
        return "SIM" + String((0..<9).map { _ in alphabet.randomElement()! })
    }

    /// The modern UDID shape: 8 hex digits, a dash, 16 hex digits.
    static func randomUDID() -> String {
        String(format: "00008030-%016llX", UInt64.random(in: 0...UInt64.max) >> 8)
    }

    static func origin(of request: Request) -> String {
        "http://" + (request.head.authority ?? "127.0.0.1:8080")
    }

    // MARK: page

    @Sendable func show(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let user = try context.requireUser()
        try simulator.sync(id)
        let stored = try simulator.state(of: id)
        let (device, events, commands, uploaded, catalog) = try services.database.read { connection in
            (try connection.require(DeviceRecord.self, id: id),
             try connection.fetch(SimulatorEventRecord.query().filter("deviceID", .equal, id).order(by: "id", .descending).limit(40)),
             try connection.fetch(DeviceCommandRecord.query().filter("deviceID", .equal, id).order(by: "id", .descending).limit(20)),
             try connection.count(DeviceLogRecord.query().filter("deviceID", .equal, id)),
             try connection.fetch(AppRecord.query()))
        }
        let colors = Dictionary(catalog.map { ($0.bundleID, AppsController.row($0).color) }, uniquingKeysWith: { first, _ in first })
        let page = SimulatorPage(
            device: device, stored: stored, events: events,
            commands: DeviceCommandsView(deviceID: id, commands: commands, role: user.role, now: services.now, back: "/simulator/\(id)"),
            uploadedLogs: uploaded, catalogColors: colors, canAct: user.role.includes(.helpdesk),
            prompt: Self.prompt(request, state: stored.state))
        return services.renderer.page("simulator/show", title: "Simulator: \(device.name)", model: page, request: request, context: context)
    }

    /// The confirmation iOS shows before an app may lock the device: asked by a link, answered
    /// by the Yes or No button, which sends the lock request with the answer.
    static func prompt(_ request: Request, state: SimulatedDevice) -> SimulatorPage.LockPrompt? {
        guard let mode = request.uri.queryParameters["prompt"].flatMap({ LockRequestMode(rawValue: String($0)) }),
              let bundleID = state.foregroundApp, let app = state.app(bundleID) else { return nil }
        return SimulatorPage.LockPrompt(app: bundleID, appName: app.name, mode: mode.rawValue,
                                        modeName: mode == .autonomous ? "Autonomous Single App Mode" : "an assessment")
    }

    @Sendable func act(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let back = "/simulator/\(id)"
        let action: SimulatorAction
        do {
            action = try SimulatorActionParser.parse { name in
                // The location form sends one "preset" value; the API sends the two numbers.
                if let preset = context.form["preset"].nilIfEmpty, name == "latitude" || name == "longitude" {
                    let parts = preset.split(separator: ",")
                    return parts.count == 2 ? String(name == "latitude" ? parts[0] : parts[1]) : nil
                }
                return context.form[name]
            }
        } catch {
            return .seeOther(back, flash: .error(error.message), cookies: services.cookies, request: request)
        }
        let (outcome, _) = try simulator.perform(action, on: id)
        let flash: Flash = outcome.event.result == .done ? .notice(outcome.event.message) : .error(outcome.event.message)
        return .seeOther(back, flash: flash, cookies: services.cookies, request: request)
    }

    // MARK: live updates

    /// Server-Sent Events: `changed` with the new revision whenever the device changes. The
    /// loop checks a one-row fingerprint four times a second and syncs the device when
    /// anything it depends on moved (policy generation, queued commands, the device record),
    /// so changes made anywhere — pages, API, command line — reach the page within a second.
    @Sendable func events(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let since = request.uri.queryParameters["since"].flatMap { Int(String($0)) } ?? -1
        let simulator = self.simulator
        let database = services.database
        _ = try database.read { try $0.require(DeviceRecord.self, id: id) }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                var lastRevision = since
                var lastInputs = ""
                var quietTicks = 0
                // Streams end after a minute, or at once when the console shuts down; the
                // browser reconnects by itself, and a shutdown never waits for open pages.
                let deadline = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < deadline, !Task.isCancelled, !Task.isShuttingDownGracefully {
                    guard let probe = try Self.probe(id, database: database) else {
                        try await writer.write(ByteBuffer(string: "event: gone\ndata: removed\n\n"))
                        break
                    }
                    if probe.inputs != lastInputs {
                        lastInputs = probe.inputs
                        if try simulator.sync(id) { continue }
                    }
                    if probe.revision != lastRevision {
                        lastRevision = probe.revision
                        try await writer.write(ByteBuffer(string: "event: changed\ndata: \(probe.revision)\n\n"))
                        quietTicks = 0
                    } else {
                        quietTicks += 1
                        if quietTicks % 60 == 0 { try await writer.write(ByteBuffer(string: ": still here\n\n")) }
                    }
                    try await Task.sleep(for: .milliseconds(250))
                }
                try await writer.finish(nil)
            })
    }

    struct Probe: Decodable {
        let revision: Int
        let inputs: String
    }

    /// What the device's state depends on, in one cheap read.
    static func probe(_ id: RecordID<DeviceRecord>, database: Database) throws -> Probe? {
        try database.read { connection in
            try connection.fetchOne(Probe.self, """
                SELECT coalesce((SELECT revision FROM simulator_states WHERE deviceID = d.id), -1) AS revision,
                       (SELECT value FROM policy_generation) || '/' ||
                       (SELECT count(*) FROM device_commands WHERE deviceID = d.id AND status IN ('queued', 'notNow')) || '/' ||
                       coalesce(d.groupID, '') || '/' || d.isSupervised || '/' || d.installedApps AS inputs
                FROM devices d WHERE d.id = \(id)
                """)
        }
    }

    // MARK: commands

    @Sendable func queueCommand(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let user = try context.requireUser()
        let back = LocalPath.sanitised(context.form["back"], fallback: "/devices/\(id)")
        guard let type = DeviceCommand.RequestType(rawValue: context.form["requestType"]), DeviceCommand.RequestType.queueable.contains(type) else {
            return .seeOther(back, flash: .error("Choose a command from the list."), cookies: services.cookies, request: request)
        }
        guard user.role.includes(type.role) else { throw AccessDenied.insufficientRole }
        var command = DeviceCommand(requestType: type)
        switch type {
        case .managedApplicationFeedback:
            command.apps = context.form["apps"].split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            command.deleteFeedback = context.form["deleteFeedback"] == "on"
        case .requestLogs:
            let minutes = context.form["captureMinutes"].trimmingWhitespace()
            if !minutes.isEmpty {
                guard let value = Int(minutes), (1...1440).contains(value) else {
                    return .seeOther(back, flash: .error("Capture for 1 to 1,440 minutes, or leave it empty to send what is kept."),
                                     cookies: services.cookies, request: request)
                }
                command.captureMinutes = value
            }
        default:
            break
        }
        let now = services.now
        let queued = command
        try services.database.write { connection in
            let device = try connection.require(DeviceRecord.self, id: id)
            _ = try connection.insert(DeviceCommandRecord(
                id: nil, uuid: UUID().uuidString, deviceID: id, requestType: type, parameters: queued, status: .queued,
                queuedAt: now, queuedBy: user.email, completedAt: nil, resultSummary: "", result: nil))
            try connection.audit("device.command", subject: device.name, by: Actor(user), after: queued.summary, at: now)
        }
        return .seeOther(back, flash: .notice("Queued: \(command.summary). The device answers at its next check-in."),
                         cookies: services.cookies, request: request)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

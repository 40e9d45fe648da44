import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// The simulator's routes and page. Enrollment and the live-update channel live in the
/// extensions beside this file.
struct SimulatorController {
    let simulator: SimulatorService
    let simulatorReader: SimulatorReader
    let tour: TourStore
    let now: @Sendable () -> Date
    let renderer: PageRenderer
    let cookies: CookieJar
    let catalogReader: CatalogReader
    let catalog: CatalogService
    let liveChanges: LiveChanges

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Simulator.new) { request, context in
            try await enrollmentForm(DeviceForm(), request: request, context: context)
        }
        routes.on(Site.Simulator.enroll, use: enroll)
        routes.on(Site.Simulator.show, use: show)
        routes.on(Site.Simulator.act, use: act)
        routes.on(Site.Simulator.events, use: events)
        routes.on(Site.Simulator.revision) { id, _, _ in
            return try .json(["revision": try await simulator.sync(id).state.revision])
        }
    }

    // MARK: page

    @Sendable func show(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        try await page(id, request: request, context: context)
    }

    /// The simulator page; after a refused action or command, with what was sent and why not.
    func page(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext,
              controls: SimulatorControlInputs = SimulatorControlInputs(), commandForm: CommandForm = CommandForm(),
              status: HTTPResponse.Status = .ok) async throws -> Response {
        let user = context.user
        let stored = try await simulator.sync(id).state
        let data = try await simulatorReader.page(of: id)
        let (device, events, commands, uploaded, catalog) = (data.device, data.events, data.commands, data.uploadedLogs, data.catalog)
        let colors = Dictionary(catalog.map { ($0.bundleID, AppsController.row($0).color) }, uniquingKeysWith: { first, _ in first })
        let tourStep = try await tour.guide(for: user.id)?
            .simulatorStep(device: device.name, openedFrom: request.uri.formParameters["step"].map(String.init))
        let page = SimulatorPage(
            device: device, stored: stored, events: events,
            commands: DeviceCommandsView(deviceID: id, commands: commands, role: user.role, now: now(), back: Site.Simulator.show.link(id),
                                         form: commandForm),
            uploadedLogs: uploaded, catalogColors: colors, canAct: user.role.includes(.helpdesk),
            prompt: Self.prompt(request, state: stored.state), controls: controls.withSampleText(of: data.story),
            // The tour asks only for what the reader's role may do.
            tour: tourStep.flatMap { user.role.includes($0.step.target.role) ? TourBanner(story: $0.story, step: $0.step, number: $0.number) : nil })
        return try renderer.page("simulator/show", title: "Simulator: \(device.name)", model: page, request: request, context: context,
                                      status: status)
    }

    /// The confirmation iOS shows before an app may lock the device: asked by a link, answered
    /// by the Yes or No button, which sends the lock request with the answer.
    static func prompt(_ request: Request, state: SimulatedDevice) -> SimulatorPage.LockPrompt? {
        guard let mode = request.uri.formParameters["prompt"].flatMap({ LockRequestMode(rawValue: String($0)) }),
              let bundleID = state.foregroundApp, let app = state.app(bundleID) else { return nil }
        return SimulatorPage.LockPrompt(app: bundleID, appName: app.name, mode: mode.rawValue,
                                        modeName: mode == .autonomous ? "Autonomous Single App Mode" : "an assessment")
    }

    @Sendable func act(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let back = Site.Simulator.show.link(id)
        let action: SimulatorAction
        do {
            action = try SimulatorActionParser.parse { name in
                // The location form sends one "preset" value; the API sends the two numbers.
                if let preset = context.form["preset"].nilIfEmpty, name == "latitude" || name == "longitude" {
                    let parts = preset.split(separator: ",")
                    // Not "latitude,longitude": handed on whole, so it is refused as a number, not
                    // read as no location at all (location services off).
                    return parts.count == 2 ? String(name == "latitude" ? parts[0] : parts[1]) : preset
                }
                return context.form[name]
            }
        } catch {
            return try await page(id, request: request, context: context, controls: SimulatorControlInputs(refused: context.form, problem: error),
                            status: .unprocessableContent)
        }
        let (outcome, _) = try await simulator.perform(action, on: id)
        let flash: Flash = outcome.event.result == .done ? .notice(outcome.event.message) : .error(outcome.event.message)
        return .seeOther(back, flash: flash, cookies: cookies, request: request)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
